using System.ComponentModel.DataAnnotations;

namespace OrderDistribution.Distributor;

/// <summary>The queues the distributor reads and feeds. Section <c>Distributor</c>.</summary>
public sealed class DistributorOptions
{
    public const string Section = "Distributor";

    [Required] public string IngressTopic { get; set; } = "q-order-ingress";

    [Required] public string ExpressTopic { get; set; } = "q-order-express";

    [Required] public string StandardTopic { get; set; } = "q-order-standard";

    [Required] public string IngressInputBinding { get; set; } = "q-order-ingress-input";

    [Required] public string ExpressOutputBinding { get; set; } = "q-order-express-output";

    [Required] public string StandardOutputBinding { get; set; } = "q-order-standard-output";
}
