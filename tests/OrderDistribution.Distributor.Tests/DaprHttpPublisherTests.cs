using System.Text.Json;
using OrderDistribution.Dapr;
using OrderDistribution.Orders;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>The requests the distributor makes of the sidecar's HTTP API, checked against a recording fake of it.</summary>
public sealed class DaprHttpPublisherTests : IAsyncLifetime
{
    private FakeDaprSidecar _sidecar = null!;
    private DaprHttpPublisher _publisher = null!;

    public async Task InitializeAsync()
    {
        _sidecar = await FakeDaprSidecar.StartAsync();
        _publisher = new DaprHttpPublisher(new HttpClient { BaseAddress = _sidecar.Address });
    }

    public async Task DisposeAsync() => await _sidecar.DisposeAsync();

    [Fact]
    public async Task Bulk_publish_sends_raw_payload_entries_with_the_order_as_a_JSON_event()
    {
        var order = TestOrders.Make(7, Delivery.Express);

        var failed = await _publisher.BulkPublishAsync(
            "order-pubsub", "q-order-express", [new BulkPublishEntry("e7", OrderJson.Serialize(order))], 131_072, default);

        Assert.Empty(failed);
        var request = Assert.Single(_sidecar.Requests);
        Assert.Equal("/v1.0-alpha1/publish/bulk/order-pubsub/q-order-express", request.Path);
        Assert.Equal("true", request.Query["metadata.rawPayload"]);
        Assert.Equal("131072", request.Query["metadata.maxBulkPubBytes"]);
        var entry = Assert.Single(request.Json.EnumerateArray().ToList());
        Assert.Equal("e7", entry.GetProperty("entryId").GetString());
        Assert.Equal("application/json", entry.GetProperty("contentType").GetString());
        Assert.Equal(TestOrders.Json(order), TestOrders.Json(OrderJson.Deserialize(entry.GetProperty("event"))));
        Assert.True(entry.GetProperty("event").TryGetProperty("OrderId", out _), "event is not PascalCase");
    }

    [Fact]
    public async Task Entry_metadata_is_sent_with_its_entry_for_the_brokers_component_to_read()
    {
        var metadata = new Dictionary<string, string> { ["ScheduledEnqueueTimeUtc"] = "2026-11-21T12:00:00Z" };

        await _publisher.BulkPublishAsync("order-pubsub", "q-order-ingress",
            [new BulkPublishEntry("e1", OrderJson.Serialize(TestOrders.Make(1, Delivery.Express)), metadata),
             new BulkPublishEntry("e2", OrderJson.Serialize(TestOrders.Make(2, Delivery.Express)))], 131_072, default);

        var entries = Assert.Single(_sidecar.Requests).Json.EnumerateArray().ToList();
        Assert.Equal("2026-11-21T12:00:00Z", entries[0].GetProperty("metadata").GetProperty("ScheduledEnqueueTimeUtc").GetString());
        Assert.False(entries[1].TryGetProperty("metadata", out _));
    }

    [Fact]
    public async Task Bulk_publish_returns_exactly_the_entries_the_sidecar_reports_failed()
    {
        _sidecar.FailEntry = e => e.GetProperty("OrderId").GetInt64() == 2;
        var entries = TestOrders.Many(3).Select(o => new BulkPublishEntry($"e{o.OrderId}", OrderJson.Serialize(o))).ToList();

        var failed = await _publisher.BulkPublishAsync("order-pubsub", "q-order-express", entries, 131_072, default);

        Assert.Equal("e2", Assert.Single(failed).EntryId);
    }

    [Fact]
    public async Task A_refused_bulk_publish_without_failed_entries_throws_so_every_entry_is_retried()
    {
        await using var unreachable = await FakeDaprSidecar.StartAsync();
        var address = unreachable.Address;
        await unreachable.DisposeAsync();
        var publisher = new DaprHttpPublisher(new HttpClient { BaseAddress = address });

        await Assert.ThrowsAsync<HttpRequestException>(() => publisher.BulkPublishAsync(
            "order-pubsub", "q-order-express", [new BulkPublishEntry("e1", OrderJson.Serialize(TestOrders.Make(1, Delivery.Express)))], 131_072, default));
    }

    [Fact]
    public async Task Single_publish_posts_the_raw_order_JSON()
    {
        var order = TestOrders.Make(8, Delivery.Standard);

        await _publisher.PublishAsync("order-pubsub", "q-order-standard", OrderJson.Serialize(order), DaprContentTypes.Json, default);

        var request = Assert.Single(_sidecar.Requests);
        Assert.Equal("/v1.0/publish/order-pubsub/q-order-standard", request.Path);
        Assert.Equal("true", request.Query["metadata.rawPayload"]);
        Assert.Equal(TestOrders.Json(order), TestOrders.Json(OrderJson.Deserialize(request.Body)));
    }

    [Fact]
    public async Task Output_binding_calls_create_with_the_order_as_data()
    {
        var order = TestOrders.Make(9, Delivery.Express);

        await _publisher.InvokeOutputBindingAsync("q-order-express-output", OrderJson.Serialize(order), DaprContentTypes.Json, default);

        var request = Assert.Single(_sidecar.Requests);
        Assert.Equal("/v1.0/bindings/q-order-express-output", request.Path);
        Assert.Equal("create", request.Json.GetProperty("operation").GetString());
        Assert.Equal(TestOrders.Json(order), TestOrders.Json(OrderJson.Deserialize(request.Json.GetProperty("data"))));
    }

    [Fact]
    public void The_sidecar_address_comes_from_DAPR_HTTP_PORT_and_a_bad_port_is_a_clear_error()
    {
        var variables = new Dictionary<string, string?> { ["DAPR_HTTP_PORT"] = "3501" };
        Assert.Equal(new Uri("http://127.0.0.1:3501"), DaprSidecarOptions.FromEnvironment(n => variables.GetValueOrDefault(n)).HttpEndpoint);

        variables["DAPR_HTTP_PORT"] = "http";
        var error = Assert.Throws<InvalidOperationException>(() => DaprSidecarOptions.FromEnvironment(n => variables.GetValueOrDefault(n)));
        Assert.Contains("DAPR_HTTP_PORT", error.Message, StringComparison.Ordinal);
    }
}
