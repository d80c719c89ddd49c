using System.Diagnostics;
using System.Net;
using Azure.Storage.Blobs.Models;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// The receiver when storage misbehaves: bounded answers, readiness that follows storage, no lost container.
/// </summary>
public sealed class ReliabilityTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    private readonly string _container = $"outbox-{Guid.NewGuid():N}"[..20];

    [Fact]
    public async Task With_storage_frozen_a_bulk_is_answered_RETRY_within_its_deadline_and_the_receiver_stays_live()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port);
        using var app = Receiver(Azurite.ConnectionStringFor(proxy.Port), ("Messaging:RequestDeadline", "00:00:02"));
        var client = app.CreateClient();
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK);
        proxy.Frozen = true;
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(500), "q-order-express");

        var clock = Stopwatch.StartNew();
        var statuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));
        clock.Stop();

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5),
            $"answered after {clock.Elapsed.TotalSeconds:0.0} s, deadline 2 s");
        Assert.All(entryIds, id => Assert.Equal("RETRY", statuses[id]));
        Assert.Equal("Healthy", await client.GetStringAsync("/alive"));
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.ServiceUnavailable);
    }

    [Fact]
    public async Task Readiness_follows_storage_stopping_and_returning_within_seconds_while_liveness_stays_up()
    {
        var port = Azurite.FreePort();
        var azurite = await Azurite.StartAsync(port: port);
        using var app = Receiver(azurite.ConnectionString);
        var client = app.CreateClient();
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK);

        await azurite.DisposeAsync();
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.ServiceUnavailable, TimeSpan.FromSeconds(5));
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/alive")).StatusCode);

        await using var restarted = await Azurite.StartAsync(port: port);
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK, TimeSpan.FromSeconds(10));
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/alive")).StatusCode);

        // The restarted (in-memory) Azurite lost the container; the receiver confirmed it again, and writes.
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(3), "q-order-express");
        var statuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));
        Assert.All(entryIds, id => Assert.Equal("SUCCESS", statuses[id]));
        Assert.Equal(3, await Outbox.CountAsync(restarted.ConnectionString, _container));
    }

    [Fact]
    public async Task A_container_deleted_while_the_receiver_runs_is_created_again_by_the_next_write_with_one_line()
    {
        using var app = Receiver(storage.Azurite.ConnectionString, ("Readiness:Interval", "00:01:00"));
        var client = app.CreateClient();
        await Deliver(client, TestOrders.Many(2));
        await Outbox.Container(storage.Azurite.ConnectionString, _container).DeleteAsync();

        // Twenty writes at once meet the missing container: one fault, one line.
        var statuses = await Deliver(client, TestOrders.Many(20, firstId: 100));

        Assert.All(statuses.Values, s => Assert.Equal("SUCCESS", s));
        Assert.Equal(20, await Outbox.CountAsync(storage.Azurite.ConnectionString, _container));
        // One line; a second only if a write's 404 is read after the container was made again (a loaded machine).
        var gone = app.Logs.Lines.Where(l => l.Message.Contains("is gone", StringComparison.Ordinal)).ToList();
        Assert.InRange(gone.Count, 1, 2);
        Assert.All(gone, line => Assert.Null(line.Exception));
    }

    [Fact]
    public async Task A_container_gone_under_twenty_writes_at_once_is_looked_up_once_not_once_a_write()
    {
        var gone = false;
        await using var endpoint = await BlobEndpoint.StartAsync(async context =>
        {
            var isContainer = context.Request.Query["restype"] == "container";
            if (context.Request.Headers.IfMatch.Count > 0)
            {
                // The warm-up's write, on a condition no blob meets.
                await BlobEndpoint.Error(context, StatusCodes.Status412PreconditionFailed, "ConditionNotMet", "No.");
            }
            else if (isContainer && context.Request.Method == "PUT")
            {
                // Slow enough that the other writes' retries wait their turn to look the container up.
                await Task.Delay(300);
                Volatile.Write(ref gone, false);
                await BlobEndpoint.Ok(context, StatusCodes.Status201Created);
            }
            else if (Volatile.Read(ref gone))
            {
                // Slow enough that every write of the bulk meets the missing container.
                await Task.Delay(isContainer ? 0 : 100);
                await BlobEndpoint.Error(context, StatusCodes.Status404NotFound, "ContainerNotFound", "Not found.");
            }
            else
            {
                await BlobEndpoint.Ok(context, isContainer ? StatusCodes.Status200OK : StatusCodes.Status201Created);
            }
        });
        using var app = Receiver(endpoint.ConnectionString, ("Readiness:Interval", "00:01:00"));
        var client = app.CreateClient();
        Assert.All((await Deliver(client, TestOrders.Many(2))).Values, s => Assert.Equal("SUCCESS", s));
        var before = endpoint.Calls.Count;
        Volatile.Write(ref gone, true);

        var statuses = await Deliver(client, TestOrders.Many(20, firstId: 100));

        Assert.All(statuses.Values, s => Assert.Equal("SUCCESS", s));
        var calls = endpoint.Calls.Skip(before).ToList();
        Assert.True(calls.Count(c => c == $"PUT {_container}") == 1, string.Join(", ", calls));
        // Once one write has made the container again, the writes that waited behind it go on writing.
        // One more each time writes' 404s are read after the container was made again (a loaded machine); twenty
        // writes looking it up each would make twenty.
        Assert.InRange(calls.Count(c => c == $"GET {_container}"), 1, 3);
    }

    [Fact]
    public async Task Concurrent_single_requests_share_one_bound_on_writes_in_flight_per_process()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port, latency: TimeSpan.FromMilliseconds(20));
        using var app = Receiver(Azurite.ConnectionStringFor(proxy.Port), ("Receiver:MaxConcurrentWrites", "8"));
        var client = app.CreateClient();
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK);
        var orders = TestOrders.Many(200);

        var answers = await Task.WhenAll(orders.Select(async order =>
        {
            var single = $$"""{"specversion":"1.0","id":"c""" +
                $$"""{{order.OrderId}}","type":"com.dapr.event.sent","data":{{TestOrders.Json(order)}}}""";
            var response = await client.PostAsync("/q-order-express-single", BulkRequest.Json(single));
            return await response.Content.ReadAsStringAsync();
        }));

        Assert.All(answers, a => Assert.Contains("SUCCESS", a, StringComparison.Ordinal));
        // Eight writes, plus the readiness probe's own connection, plus one that closes as the next opens.
        Assert.InRange(proxy.MostOpenConnections, 1, 10);
        Assert.Equal(200, await Outbox.CountAsync(storage.Azurite.ConnectionString, _container));
    }

    [Fact]
    public async Task Each_blob_carries_the_time_it_was_stored_with_sub_second_resolution()
    {
        using var app = Receiver(storage.Azurite.ConnectionString);
        var before = DateTimeOffset.UtcNow;

        await Deliver(app.CreateClient(), TestOrders.Many(3));

        var after = DateTimeOffset.UtcNow;
        var storedAt = new List<DateTimeOffset?>();
        await foreach (var blob in Outbox.Container(storage.Azurite.ConnectionString, _container)
            .GetBlobsAsync(new GetBlobsOptions { Traits = BlobTraits.Metadata }))
        {
            storedAt.Add(OrderBlob.ParseStoredAt(blob.Metadata[OrderBlob.StoredAtMetadata]));
        }

        Assert.Equal(3, storedAt.Count);
        Assert.All(storedAt, t => Assert.InRange(t!.Value, before, after));
        Assert.Contains(storedAt, t => t!.Value.Millisecond != 0 || t.Value.Ticks % TimeSpan.TicksPerSecond != 0);
    }

    [Fact]
    public void A_storage_connection_string_that_cannot_be_parsed_stops_the_receiver_naming_the_setting()
    {
        var error = Assert.IsType<OptionsValidationException>(AppStart.FailureOf("express",
            ("INSTANCE", "express"), ("Storage:ConnectionString", "AccountName=;this is not a connection string")));

        Assert.Contains("Storage:ConnectionString", error.Message, StringComparison.Ordinal);
    }

    private static async Task<Dictionary<string, string>> Deliver(HttpClient client, IEnumerable<Order> orders)
    {
        var (body, _) = BulkRequest.RawPayload(orders, "q-order-express");
        return await BulkRequest.StatusesAsync(await client.PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));
    }

    private ReceiverFactory Receiver(string connectionString, params (string, string?)[] settings) =>
        new(connectionString, "express",
            [("Receiver:Container", _container), ("Readiness:Interval", "00:00:00.200"), .. settings]);
}
