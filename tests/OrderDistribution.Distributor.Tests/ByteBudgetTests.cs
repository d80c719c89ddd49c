using OrderDistribution.Dapr;
using OrderDistribution.Orders;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>The seed hit "the message is too large" at 500 orders a batch; no bulk publish may exceed the budget.</summary>
public sealed class ByteBudgetTests
{
    private const int Budget = 131_072;

    [Fact]
    public async Task A_bulk_of_500_large_orders_goes_out_in_several_publishes_each_under_the_budget_every_order_once()
    {
        using var app = new DistributorFactory(("Messaging:MaxMessagesCount", "500"));
        var orders = TestOrders.Many(500, descriptionLength: 1_500);
        var (body, entryIds) = BulkDelivery.RawPayload(orders, "q-order-ingress");

        var statuses = await BulkDelivery.StatusesAsync(
            await app.CreateClient().PostAsync("/q-order-ingress-bulk", BulkDelivery.Json(body)));

        Assert.All(entryIds, id => Assert.Equal("SUCCESS", statuses[id]));
        var publishes = app.Sidecar.BulkPublishes.ToList();
        Assert.True(publishes.Count(p => p.Topic == "q-order-express") > 1, "express went out in one publish");
        Assert.True(publishes.Count(p => p.Topic == "q-order-standard") > 1, "standard went out in one publish");
        Assert.All(publishes, p => Assert.True(
            p.Entries.Sum(BulkPublishBudget.CostOf) <= Budget, $"a publish of {p.Entries.Count} entries is over budget"));
        var published = publishes.SelectMany(p => p.Entries).Select(e => OrderJson.Deserialize(e.Payload).OrderId).ToList();
        Assert.Equal(orders.Select(o => o.OrderId).Order(), published.Order());
    }

    [Fact]
    public async Task Over_HTTP_no_bulk_publish_request_body_exceeds_the_budget_so_a_capped_broker_takes_them_all()
    {
        await using var sidecar = await FakeDaprSidecar.StartAsync();
        sidecar.MaxBulkRequestBytes = Budget;
        var publisher = PublisherFor(sidecar);
        var entries = TestOrders.Many(500, descriptionLength: 1_500)
            .Select(o => new BulkPublishEntry(Guid.NewGuid().ToString(), OrderJson.Serialize(o)))
            .ToList();

        var failed = await publisher.PublishAsync("q-order-express", entries, CancellationToken.None);

        Assert.Empty(failed);
        var requests = sidecar.BulkPublishes("q-order-express").ToList();
        Assert.True(requests.Count > 1);
        Assert.All(requests, r => Assert.True(r.Body.Length <= Budget, $"request of {r.Body.Length} bytes"));
        Assert.Equal(
            entries.Select(e => e.EntryId).Order(),
            requests.SelectMany(r => r.Json.EnumerateArray()).Select(e => e.GetProperty("entryId").GetString()).Order());
    }

    [Fact]
    public void Chunks_keep_the_entries_in_order_and_lose_none()
    {
        var entries = Enumerable.Range(0, 100)
            .Select(i => new BulkPublishEntry($"e{i}", new byte[100 + (i * 37 % 900)]))
            .ToList();

        var chunks = BulkPublishBudget.Chunk(entries, 4_096);

        Assert.Equal(entries, chunks.SelectMany(c => c));
        Assert.All(chunks, c => Assert.True(c.Sum(BulkPublishBudget.CostOf) <= 4_096));
    }

    [Fact]
    public async Task An_order_too_large_for_any_batch_is_published_on_its_own()
    {
        await using var sidecar = await FakeDaprSidecar.StartAsync();
        var publisher = PublisherFor(sidecar, maxBytes: 2_048);
        var huge = new BulkPublishEntry("big", OrderJson.Serialize(TestOrders.Make(1, Delivery.Express, descriptionLength: 4_000)));
        var small = new BulkPublishEntry("small", OrderJson.Serialize(TestOrders.Make(2, Delivery.Express)));

        var failed = await publisher.PublishAsync("q-order-express", [huge, small], CancellationToken.None);

        Assert.Empty(failed);
        Assert.Single(sidecar.Requests, r => r.Path == "/v1.0/publish/order-pubsub/q-order-express");
        Assert.Single(sidecar.BulkPublishes("q-order-express"));
    }

    internal static BulkOrderPublisher PublisherFor(FakeDaprSidecar sidecar, int maxBytes = Budget) => new(
        new DaprHttpPublisher(new HttpClient { BaseAddress = sidecar.Address }),
        Microsoft.Extensions.Options.Options.Create(new MessagingOptions { MaxBulkPublishBytes = maxBytes }),
        DaprSidecarResilience.Create(new DaprSidecarOptions().Limits));
}
