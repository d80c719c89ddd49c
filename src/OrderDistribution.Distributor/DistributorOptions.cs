using System.ComponentModel.DataAnnotations;
using OrderDistribution.Contracts;

namespace OrderDistribution.Distributor;

/// <summary>The queues the distributor reads and feeds. Section <c>Distributor</c>.</summary>
public sealed class DistributorOptions
{
    public const string Section = "Distributor";

    [Required] public string IngressQueue { get; set; } = OrderTopology.IngressQueue;

    [Required]
    public string ExpressQueue { get; set; } =
        OrderTopology.QueueOf(OrderTopology.InstanceOf(Delivery.Express));

    [Required]
    public string StandardQueue { get; set; } =
        OrderTopology.QueueOf(OrderTopology.InstanceOf(Delivery.Standard));

    [Required] public string IngressInputBinding { get; set; } = OrderTopology.IngressInputBinding;

    [Required]
    public string ExpressOutputBinding { get; set; } =
        OrderTopology.OutputBindingOf(OrderTopology.InstanceOf(Delivery.Express));

    [Required]
    public string StandardOutputBinding { get; set; } =
        OrderTopology.OutputBindingOf(OrderTopology.InstanceOf(Delivery.Standard));
}
