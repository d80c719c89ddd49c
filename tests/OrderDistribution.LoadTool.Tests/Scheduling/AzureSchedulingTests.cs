using Microsoft.AspNetCore.Builder;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Scheduling;

/// <summary>
/// Scheduling for Azure: one scheduled enqueue time for the whole burst, in storage's time; none locally.
/// </summary>
public sealed class AzureSchedulingTests(AzuriteFixture storage) : SchedulingTest(storage)
{
    [Fact]
    public async Task Azure_scheduling_bulk_publishes_every_order_with_one_scheduled_enqueue_time_whatever_the_model()
    {
        var orders = await GenerateAsync(500);
        await using var azure = await Azurite.StartAsync();
        await new Azure.Storage.Blobs.BlobContainerClient(azure.ConnectionString,
            WatchExpectation.OutboxFor(Delivery.Express)).CreateIfNotExistsAsync();
        var before = DateTimeOffset.UtcNow;
        var cli = new Cli();

        var exit = await cli.RunAsync(
            ["schedule", "--target", "azure", "--schedule-delay", "20", "--model", "bindings", "--storage",
            azure.ConnectionString, .. Files()]);
        var after = DateTimeOffset.UtcNow;

        Assert.Equal(0, exit);
        var record = await ScheduleRecord.ReadAsync(Path.Combine(Folder, "schedule.json"), default);
        // The instant is in storage's time; the skew it was corrected by is recorded and reported in one line.
        Assert.NotNull(record.ClockSkewSeconds);
        Assert.InRange(record.ClockSkewSeconds!.Value, -1, 1);
        Assert.Single(cli.Output.Split('\n'),
            line => line.StartsWith("Clock: storage's clock is", StringComparison.Ordinal));
        // Twenty seconds from when it measured the clock, after it took the store.
        Assert.InRange(record.ScheduledAt, before.AddSeconds(19), after.AddSeconds(21));
        Assert.Equal(0, record.ScheduledAt.Millisecond);
        var entries = Sidecar.BulkPublishes(OrderTopology.IngressQueue).SelectMany(r => r.Json.EnumerateArray())
            .ToList();
        Assert.Equal(orders.Select(o => o.OrderId).Order(),
            entries.Select(e => OrderJson.Deserialize(e.GetProperty("event")).OrderId).Order());
        Assert.All(entries, e => Assert.Equal(
            record.ScheduledAt,
            DateTimeOffset.Parse(e.GetProperty("metadata").GetProperty("ScheduledEnqueueTimeUtc").GetString()!,
                System.Globalization.CultureInfo.InvariantCulture)));
        Assert.DoesNotContain(Sidecar.Requests, r => r.Path.StartsWith("/v1.0/bindings/", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Azure_scheduling_puts_the_instant_in_storages_time_when_this_machines_clock_is_off()
    {
        await GenerateAsync(50);
        // Storage whose clock is two minutes ahead of this machine's: its Date header says so.
        var ahead = TimeSpan.FromMinutes(2);
        await using var clockAhead = LoopbackServer.Create();
        clockAhead.MapMethods("/{account}/{container}", ["HEAD", "GET"],
            (Microsoft.AspNetCore.Http.HttpContext context) =>
        {
            context.Response.Headers.Date = (DateTimeOffset.UtcNow + ahead)
                .ToString("R", System.Globalization.CultureInfo.InvariantCulture);
            context.Response.Headers.ETag = "\"0x1\"";
            context.Response.Headers.LastModified = DateTimeOffset.UtcNow.ToString("R",
                System.Globalization.CultureInfo.InvariantCulture);
            return Microsoft.AspNetCore.Http.Results.Ok();
        });
        // The lease on the tool's marker blob, as the Blob service grants it: acquired (201), then renewed, its
        // metadata set and released (200).
        clockAhead.MapMethods("/{account}/{container}/{blob}", ["PUT"],
            (Microsoft.AspNetCore.Http.HttpContext context) =>
        {
            var headers = context.Request.Headers;
            context.Response.Headers.ETag = "\"0x1\"";
            context.Response.Headers.LastModified = DateTimeOffset.UtcNow.ToString("R",
                System.Globalization.CultureInfo.InvariantCulture);
            context.Response.Headers["x-ms-lease-id"] = headers["x-ms-proposed-lease-id"]
                .ToString() is { Length: > 0 } proposed ? proposed : headers["x-ms-lease-id"].ToString();
            return headers["x-ms-lease-action"] == "acquire" ? Microsoft.AspNetCore.Http.Results.StatusCode(
                201) : Microsoft.AspNetCore.Http.Results.Ok();
        });
        await clockAhead.StartAsync();
        var connection =
            $"DefaultEndpointsProtocol=http;AccountName={Azurite.AccountName};AccountKey={Azurite.AccountKey};" +
                         $"BlobEndpoint={LoopbackServer.AddressOf(clockAhead)}{Azurite.AccountName};";
        var before = DateTimeOffset.UtcNow;

        var exit = await new Cli()
            .RunAsync(["schedule", "--target", "azure", "--schedule-delay", "20", "--storage", connection, .. Files()]);

        Assert.Equal(0, exit);
        var record = await ScheduleRecord.ReadAsync(Path.Combine(Folder, "schedule.json"), default);
        Assert.InRange(record.ClockSkewSeconds!.Value, ahead.TotalSeconds - 1, ahead.TotalSeconds + 1);
        Assert.InRange(record.ScheduledAt, before + ahead + TimeSpan.FromSeconds(18),
            DateTimeOffset.UtcNow + ahead + TimeSpan.FromSeconds(22));
    }

    [Fact]
    public async Task Local_scheduling_sets_no_enqueue_time()
    {
        await GenerateAsync(20);

        await new Cli().RunAsync(["schedule", .. Common()]);

        Assert.All(Sidecar.BulkPublishes(OrderTopology.IngressQueue).SelectMany(r => r.Json.EnumerateArray()),
            e => Assert.False(e.TryGetProperty("metadata", out var metadata)
                && metadata.TryGetProperty("ScheduledEnqueueTimeUtc", out _)));
    }
}
