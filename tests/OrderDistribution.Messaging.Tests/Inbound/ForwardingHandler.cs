using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// Sends every order on to its delivery's queue through the core's way out of the way it came (bulk publish, one
/// publish, output binding), as an app's handler does, without an app's routing.
/// </summary>
public sealed class ForwardingHandler(IServiceProvider services) : IOrderHandler
{
    private readonly BulkPublishForwarder _bulk = new(services.GetRequiredService<BulkOrderPublisher>());
    private readonly SinglePublishForwarder _single = ActivatorUtilities.CreateInstance<SinglePublishForwarder>(
        services);
    private readonly OutputBindingForwarder _binding = ActivatorUtilities.CreateInstance<OutputBindingForwarder>(
        services);

    public Task HandleAsync(IReadOnlyList<InboundOrder> orders, MessagingModel model, IOrderProgress progress,
        CancellationToken cancellationToken)
    {
        var routed = orders.Select(o => new RoutedOrder(o.EntryId, o.Order, DestinationOf(o.Order.Delivery))).ToList();
        IOrderForwarder forwarder = model switch
        {
            MessagingModel.PubSubBulk => _bulk,
            MessagingModel.PubSubSingle => _single,
            _ => _binding,
        };
        return forwarder.ForwardAsync(routed, progress, cancellationToken);
    }

    private static Destination DestinationOf(Delivery delivery)
    {
        var instance = OrderTopology.InstanceOf(delivery);
        return new Destination(OrderTopology.QueueOf(instance), OrderTopology.OutputBindingOf(instance));
    }
}
