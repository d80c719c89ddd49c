using Dapr.Client;
using Microsoft.Extensions.Options;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using Polly;

namespace OrderDistribution.Distributor;

/// <summary>
/// Forwards each order to its destination the way it arrived: a bulk delivery goes out as bulk publishes
/// within the byte budget, a single delivery as one publish, a binding delivery through an output binding.
/// An order is done when the sidecar confirmed it; an order it can never take (too large, refused for good) is
/// dropped, on every channel alike; any other failure leaves the order to be delivered again.
/// </summary>
public sealed class OrderDistributor(
    OrderRouter router,
    BulkOrderPublisher bulkPublisher,
    DaprClient dapr,
    IOutputBindings bindings,
    OrderSizeLimit sizeLimit,
    SidecarFailures failures,
    [FromKeyedServices(DaprSidecarResilience.Key)] ResiliencePipeline resilience,
    IOptions<MessagingOptions> messaging) : IOrderHandler
{
    private static readonly Dictionary<string, string> RawPayload = new() { ["rawPayload"] = "true" };

    public Task HandleAsync(
        IReadOnlyList<InboundOrder> orders, InboundChannel channel, DeliveryProgress progress, CancellationToken cancellationToken) =>
        channel == InboundChannel.BulkSubscription
            ? PublishInBulkAsync(orders, progress, cancellationToken)
            : ForwardOneByOneAsync(orders, channel, progress, cancellationToken);

    private async Task PublishInBulkAsync(IReadOnlyList<InboundOrder> orders, DeliveryProgress progress, CancellationToken cancellationToken) =>
        await Task.WhenAll(orders
            .GroupBy(o => router.Route(o.Order).Topic)
            .Select(topic => bulkPublisher.PublishAsync(
                topic.Key,
                topic.Select(o => new OutboundMessage(o.EntryId, OrderJson.Serialize(o.Order))).ToList(),
                cancellationToken,
                published: progress.MarkDone,
                failed: progress.MarkFailed,
                // A drop is rare: the order's id is looked up then, not indexed for every delivery.
                dropped: (entryId, reason) => progress.MarkDropped(
                    entryId, $"order {topic.First(o => o.EntryId == entryId).Order.OrderId} to {topic.Key}: {reason}"))));

    private async Task ForwardOneByOneAsync(
        IReadOnlyList<InboundOrder> orders, InboundChannel channel, DeliveryProgress progress, CancellationToken cancellationToken)
    {
        foreach (var (entryId, order) in orders)
        {
            var destination = router.Route(order);
            var to = channel == InboundChannel.InputBinding ? destination.OutputBinding : destination.Topic;
            var payload = OrderJson.Serialize(order);
            if (sizeLimit.RefusalOf(payload.Length) is { } refusal)
            {
                progress.MarkDropped(entryId, $"order {order.OrderId} to {to}: {refusal}");
                continue;
            }

            try
            {
                // A callback of object, as on every per-order path (DependencyResilience).
                await resilience.ExecuteAsync<object?>(async ct =>
                {
                    if (channel == InboundChannel.InputBinding)
                    {
                        await bindings.CreateAsync(destination.OutputBinding, payload, ct);
                    }
                    else
                    {
                        await dapr.PublishByteEventAsync(
                            messaging.Value.PubSubName, destination.Topic, payload, "application/json", RawPayload, ct);
                    }

                    return null;
                }, cancellationToken);
                failures.Succeeded();
                progress.MarkDone(entryId);
            }
            catch (Exception e) when (DaprPublishFailure.IsExpected(e, cancellationToken))
            {
                var reason = $"forwarding order {order.OrderId} to {to} failed: {DaprPublishFailure.Reason(e)}";
                if (failures.Judge(e) == SidecarFailureKind.RejectsOrder)
                {
                    progress.MarkDropped(entryId, $"order {order.OrderId} to {to}: the sidecar refuses it for good: {DaprPublishFailure.Reason(e)}");
                }
                else
                {
                    progress.MarkFailed(entryId, reason);
                }
            }
        }
    }
}
