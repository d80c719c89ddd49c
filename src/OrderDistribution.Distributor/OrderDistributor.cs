using Microsoft.Extensions.Options;
using OrderDistribution.Dapr;
using OrderDistribution.Orders;

namespace OrderDistribution.Distributor;

/// <summary>
/// Forwards each order to its destination the way it arrived: a bulk delivery goes out as bulk publishes
/// within the byte budget, a single delivery as one publish, a binding delivery through an output binding.
/// </summary>
public sealed partial class OrderDistributor(
    OrderRouter router,
    BulkOrderPublisher bulkPublisher,
    IDaprPublisher sidecar,
    IOptions<MessagingOptions> messaging,
    ILogger<OrderDistributor> logger) : IOrderHandler
{
    public Task<IReadOnlySet<string>> HandleAsync(
        IReadOnlyList<InboundOrder> orders, InboundChannel channel, CancellationToken cancellationToken) =>
        channel == InboundChannel.BulkSubscription
            ? PublishInBulkAsync(orders, cancellationToken)
            : ForwardOneByOneAsync(orders, channel, cancellationToken);

    private async Task<IReadOnlySet<string>> PublishInBulkAsync(
        IReadOnlyList<InboundOrder> orders, CancellationToken cancellationToken)
    {
        var byTopic = orders
            .GroupBy(o => router.Route(o.Order).Topic)
            .Select(group => (Topic: group.Key, Entries: group
                .Select(o => new BulkPublishEntry(o.EntryId, OrderJson.Serialize(o.Order)))
                .ToList()))
            .ToList();
        var failedPerTopic = await Task.WhenAll(
            byTopic.Select(t => bulkPublisher.PublishAsync(t.Topic, t.Entries, cancellationToken)));

        var failed = failedPerTopic.SelectMany(f => f).ToHashSet();
        foreach (var (topic, entries) in byTopic)
        {
            LogDistributed(entries.Count, topic, entries.Count(e => failed.Contains(e.EntryId)));
        }

        return failed;
    }

    private async Task<IReadOnlySet<string>> ForwardOneByOneAsync(
        IReadOnlyList<InboundOrder> orders, InboundChannel channel, CancellationToken cancellationToken)
    {
        var failed = new HashSet<string>();
        foreach (var (entryId, order) in orders)
        {
            var destination = router.Route(order);
            try
            {
                var payload = OrderJson.Serialize(order);
                if (channel == InboundChannel.InputBinding)
                {
                    await sidecar.InvokeOutputBindingAsync(destination.OutputBinding, payload, cancellationToken);
                }
                else
                {
                    await sidecar.PublishAsync(messaging.Value.PubSubName, destination.Topic, payload, cancellationToken);
                }
            }
            catch (Exception e) when (DaprPublishFailure.IsTransient(e, cancellationToken))
            {
                LogForwardFailed(e, order.OrderId, destination.Topic);
                failed.Add(entryId);
            }
        }

        return failed;
    }

    [LoggerMessage(LogLevel.Information, "Distributed {Count} orders to {Topic}, {FailedCount} failed")]
    private partial void LogDistributed(int count, string topic, int failedCount);

    [LoggerMessage(LogLevel.Error, "Forwarding order {OrderId} to {Destination} failed")]
    private partial void LogForwardFailed(Exception exception, long orderId, string destination);
}
