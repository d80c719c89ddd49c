using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>The seed hit "the message is too large" at 500 orders a batch: the distributor splits such a bulk by delivery and by the budget.</summary>
public sealed class ByteBudgetTests
{
    private const int Budget = 131_072;

    [Fact]
    public async Task A_bulk_of_500_large_orders_goes_out_in_several_publishes_each_under_the_budget_every_order_once()
    {
        using var app = new DistributorFactory(("Messaging:MaxMessagesCount", "500"));
        var orders = TestOrders.Many(500, descriptionLength: 1_500);
        var (body, entryIds) = BulkRequest.RawPayload(orders, "q-order-ingress");

        var statuses = await BulkRequest.StatusesAsync(
            await app.CreateClient().PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body)));

        Assert.All(entryIds, id => Assert.Equal("SUCCESS", statuses[id]));
        var publishes = app.Sidecar.BulkPublishes.ToList();
        Assert.True(publishes.Count(p => p.Topic == "q-order-express") > 1, "express went out in one publish");
        Assert.True(publishes.Count(p => p.Topic == "q-order-standard") > 1, "standard went out in one publish");
        Assert.All(publishes, p => Assert.True(
            p.Payloads.Sum(payload => BulkPublishBudget.CostOf(new OutboundMessage("", payload), p.Metadata)) <= Budget,
            $"a publish of {p.Payloads.Count} entries is over budget"));
        var published = publishes.SelectMany(p => p.Payloads).Select(payload => OrderJson.Deserialize(payload).OrderId).ToList();
        Assert.Equal(orders.Select(o => o.OrderId).Order(), published.Order());
    }
}
