using System.Net;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>The receiver against a real Azurite: what goes in comes out as one blob per order.</summary>
public sealed class BlobStorageTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    private readonly string _container = $"outbox-{Guid.NewGuid():N}"[..20];

    [Fact]
    public async Task N_orders_delivered_in_bulk_become_N_json_blobs_named_by_order_id_with_the_order_and_its_time()
    {
        using var app = Receiver();
        var orders = TestOrders.Many(300);
        var before = DateTimeOffset.UtcNow;

        foreach (var batch in orders.Chunk(100))
        {
            var (body, entryIds) = BulkRequest.RawPayload(batch, "q-order-express");
            var statuses = await BulkRequest.StatusesAsync(
                await app.CreateClient().PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));
            Assert.All(entryIds, id => Assert.Equal("SUCCESS", statuses[id]));
        }

        var blobs = await Outbox.ReadAsync(storage.Azurite.ConnectionString, _container);
        Assert.Equal(orders.Select(o => $"{o.OrderId}.json").Order(), blobs.Keys.Order());
        Assert.All(orders, o => Assert.Equal(TestOrders.Json(o), TestOrders.Json(blobs[$"{o.OrderId}.json"])));
        var properties = (await Outbox.Container(storage.Azurite.ConnectionString, _container)
            .GetBlobClient(OrderBlob.NameOf(orders[^1])).GetPropertiesAsync(cancellationToken: default)).Value;
        Assert.Equal("application/json", properties.ContentType);
        Assert.InRange(OrderBlob.ParseStoredAt(properties.Metadata[OrderBlob.StoredAtMetadata])!.Value,
            before.AddSeconds(-1), DateTimeOffset.UtcNow.AddSeconds(1));
    }

    [Fact]
    public async Task The_same_orders_delivered_again_still_leave_one_blob_each()
    {
        using var app = Receiver();
        var orders = TestOrders.Many(120);

        for (var delivery = 0; delivery < 2; delivery++)
        {
            var (body, entryIds) = BulkRequest.RawPayload(orders, "q-order-express");
            var statuses = await BulkRequest.StatusesAsync(
                await app.CreateClient().PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));
            Assert.All(entryIds, id => Assert.Equal("SUCCESS", statuses[id]));
        }

        Assert.Equal(120, (await Outbox.ReadAsync(storage.Azurite.ConnectionString, _container)).Count);
    }

    [Fact]
    public async Task When_storage_becomes_unreachable_mid_batch_unwritten_orders_are_answered_RETRY_never_SUCCESS()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port, latency: TimeSpan.FromMilliseconds(40));
        using var app = Receiver(Azurite.ConnectionStringFor(proxy.Port), ("Receiver:MaxConcurrentWrites", "16"));
        var orders = TestOrders.Many(300);
        var (body, entryIds) = BulkRequest.RawPayload(orders, "q-order-express");

        var delivery = app.CreateClient().PostAsync("/q-order-express-bulk", BulkRequest.Json(body));
        while (await Outbox.CountAsync(storage.Azurite.ConnectionString, _container) < 10)
        {
            Assert.False(delivery.IsCompleted, "the whole batch was written before storage could be cut");
            await Task.Delay(5);
        }

        proxy.Cut();
        var statuses = await BulkRequest.StatusesAsync(await delivery);

        var stored = (await Outbox.ReadAsync(storage.Azurite.ConnectionString, _container)).Keys.ToHashSet();
        var entryOf = entryIds.Zip(orders, (id, order) => (id, blob: $"{order.OrderId}.json")).ToList();
        Assert.Equal(300, statuses.Count);
        Assert.All(entryOf.Where(e => statuses[e.id] == "SUCCESS"), e => Assert.Contains(e.blob, stored));
        Assert.All(entryOf.Where(e => !stored.Contains(e.blob)), e => Assert.Equal("RETRY", statuses[e.id]));
        Assert.Contains("RETRY", statuses.Values);
        Assert.Contains("SUCCESS", statuses.Values);
    }

    [Fact]
    public async Task Single_and_binding_requests_are_stored_too()
    {
        using var app = Receiver();
        var client = app.CreateClient();

        var single = await client.SendAsync(
            WireRecording.Load("single-rawpayload.request.json").ToRequest("/q-order-express-single"));
        var binding = await client.SendAsync(
            WireRecording.Load("input-binding-storagequeue.request.json").ToRequest("/q-order-express-input"));
        var bulk = await client.SendAsync(
            WireRecording.Load("bulk-cloudevent.request.json").ToRequest("/q-order-express-bulk"));

        Assert.Equal(HttpStatusCode.OK, single.StatusCode);
        Assert.Equal(HttpStatusCode.OK, binding.StatusCode);
        Assert.All((await BulkRequest.StatusesAsync(bulk)).Values, s => Assert.Equal("SUCCESS", s));
        Assert.Equal(["1000001.json", "1000002.json"],
            (await Outbox.ReadAsync(storage.Azurite.ConnectionString, _container)).Keys.Order());
    }

    [Fact]
    public async Task With_storage_unreachable_a_single_request_is_answered_RETRY_and_a_binding_request_503()
    {
        using var app = Receiver(Azurite.ConnectionStringFor(Azurite.FreePort()));
        var client = app.CreateClient();

        var single = await client.SendAsync(
            WireRecording.Load("single-cloudevent.request.json").ToRequest("/q-order-express-single"));
        var binding = await client.SendAsync(
            WireRecording.Load("input-binding-storagequeue.request.json").ToRequest("/q-order-express-input"));

        Assert.Contains("\"RETRY\"", await single.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, binding.StatusCode);
    }

    [Theory]
    [MemberData(nameof(Recordings))]
    public async Task Every_recorded_sidecar_request_is_accepted_with_a_200(string recording)
    {
        using var app = Receiver();
        var route = recording switch
        {
            _ when recording.StartsWith("bulk-", StringComparison.Ordinal) => "/q-order-express-bulk",
            _ when recording.StartsWith("single-", StringComparison.Ordinal) => "/q-order-express-single",
            _ => "/q-order-express-input",
        };

        var response = await app.CreateClient().SendAsync(WireRecording.Load(recording).ToRequest(route));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    public static TheoryData<string> Recordings() => new(WireRecording.RequestNames());

    private ReceiverFactory Receiver(string? connectionString = null, params (string, string?)[] settings) =>
        new(connectionString ?? storage.Azurite.ConnectionString, "express",
            [("Receiver:Container", _container), .. settings]);
}
