using OrderDistribution.Messaging.Inbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>A bulk that cannot all be done before its deadline: what was done is answered as done.</summary>
public sealed class PartialBulkTests
{
    [Fact]
    public async Task A_bulk_half_stored_at_its_deadline_answers_SUCCESS_for_that_half_and_RETRY_only_for_the_rest()
    {
        var handler = new HalfThenStuckHandler();
        await using var app = await EntryPointsHost.StartAsync(handler, ("Messaging:RequestDeadline", "00:00:01"));
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(10), "q-order-ingress");

        var statuses = await BulkRequest.StatusesAsync(
            await app.Client.PostAsync(EntryPointsHost.Routes.Bulk, BulkRequest.Json(body)));

        Assert.Equal(entryIds.Count, statuses.Count);
        Assert.All(entryIds, id => Assert.Equal(handler.Done.Contains(id) ? "SUCCESS" : "RETRY", statuses[id]));
        Assert.Equal(5, statuses.Values.Count(s => s == "SUCCESS"));
    }

    /// <summary>Stores every other order at once; the others never answer, as on a store that fell behind.</summary>
    private sealed class HalfThenStuckHandler : IOrderHandler
    {
        public HashSet<string> Done { get; } = [];

        public Task HandleAsync(IReadOnlyList<InboundOrder> orders, MessagingModel model, IOrderProgress progress,
            CancellationToken cancellationToken)
        {
            foreach (var order in orders.Where((_, i) => i % 2 == 0))
            {
                Done.Add(order.EntryId);
                progress.MarkDone(order.EntryId);
            }

            return Task.Delay(Timeout.Infinite, cancellationToken);
        }
    }
}
