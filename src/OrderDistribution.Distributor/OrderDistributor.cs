using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.Distributor;

/// <summary>Routes each order to its destination and hands them to the way out of the model they arrived in.</summary>
public sealed class OrderDistributor(OrderRouter router, OrderForwarders forwarders) : IOrderHandler
{
    public Task HandleAsync(
        IReadOnlyList<InboundOrder> orders,
        MessagingModel model,
        IOrderProgress progress,
        CancellationToken cancellationToken)
    {
        var routed = new RoutedOrder[orders.Count];
        for (var i = 0; i < routed.Length; i++)
        {
            routed[i] = new RoutedOrder(orders[i].EntryId, orders[i].Order, router.Route(orders[i].Order));
        }

        return forwarders.For(model).ForwardAsync(routed, progress, cancellationToken);
    }
}
