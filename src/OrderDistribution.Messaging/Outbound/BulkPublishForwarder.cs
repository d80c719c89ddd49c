using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Pub/sub in bulk: the orders of each queue go out as bulk publishes within the byte budget (<see
/// cref="BulkOrderPublisher"/>).
/// </summary>
public sealed class BulkPublishForwarder(BulkOrderPublisher publisher) : IOrderForwarder
{
    public async Task ForwardAsync(IReadOnlyList<RoutedOrder> orders, IOrderProgress progress,
        CancellationToken cancellationToken) =>
        await Task.WhenAll(orders
            .GroupBy(o => o.Destination.Queue)
            .Select(queue => publisher.PublishAsync(
                queue.Key,
                queue.Select(o => new OutboundMessage(o.EntryId, OrderJson.Serialize(o.Order))).ToList(),
                cancellationToken,
                published: progress.MarkDone,
                failed: progress.MarkFailed,
                // A drop is rare: the order's id is looked up then, not indexed for every request.
                dropped: (entryId, reason) => progress.MarkDropped(
                    entryId,
                        $"order {queue.First(o => o.EntryId == entryId).Order.OrderId} to {queue.Key}: {reason}"))));
}
