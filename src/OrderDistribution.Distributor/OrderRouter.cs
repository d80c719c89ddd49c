using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.Distributor;

/// <summary>Where an order goes: its delivery picks the express or the standard queue.</summary>
public sealed class OrderRouter(IOptions<DistributorOptions> options)
{
    private readonly Destination _express = new(options.Value.ExpressQueue, options.Value.ExpressOutputBinding);
    private readonly Destination _standard = new(options.Value.StandardQueue, options.Value.StandardOutputBinding);

    public Destination Route(Order order) => order.Delivery switch
    {
        Delivery.Express => _express,
        Delivery.Standard => _standard,
        _ => throw new InvalidOrderException($"order {order.OrderId}: unknown delivery '{order.Delivery}'"),
    };
}
