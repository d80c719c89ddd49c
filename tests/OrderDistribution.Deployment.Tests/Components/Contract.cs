using OrderDistribution.Contracts;
namespace OrderDistribution.Deployment.Tests;

/// <summary>The naming contract the apps are written to; the deployment files must match it.</summary>
internal static class Contract
{
    public const string Distributor = "distributor";
    public const string ReceiverExpress = "receiver-express";
    public const string ReceiverStandard = "receiver-standard";

    public static readonly string[] AppIds = [Distributor, ReceiverExpress, ReceiverStandard];

    public static readonly string[] Instances = [.. OrderTopology.Instances];

    public const string PubSubName = OrderTopology.PubSubName;

    public const string IngressQueue = OrderTopology.IngressQueue;
    public static readonly string ExpressQueue = OrderTopology.QueueOf("express");
    public static readonly string StandardQueue = OrderTopology.QueueOf("standard");

    public const string DeadLetterQueue = OrderTopology.DeadLetterQueue;

    public static readonly string[] Queues = [IngressQueue, ExpressQueue, StandardQueue, DeadLetterQueue];

    public static readonly string[] BlobContainers =
        [.. OrderTopology.Outboxes, OrderTopology.TestDataContainer, OrderTopology.StorageAloneContainer,
            OrderTopology.LoadToolContainer];

    /// <summary>Binding component name, direction, queue and the one app it is scoped to.</summary>
    public static readonly Binding[] Bindings =
    [
        new(OrderTopology.IngressInputBinding, "input", IngressQueue, Distributor),
        new(OrderTopology.OutputBindingOf("express"), "output", ExpressQueue, Distributor),
        new(OrderTopology.OutputBindingOf("standard"), "output", StandardQueue, Distributor),
        new(OrderTopology.InputBindingOf("express"), "input", ExpressQueue, ReceiverExpress),
        new(OrderTopology.InputBindingOf("standard"), "input", StandardQueue, ReceiverStandard),
    ];

    /// <summary>Local only: the load tool puts orders on the ingress queue through the distributor's sidecar.</summary>
    public static readonly Binding LocalIngressOutput = new(OrderTopology.IngressOutputBinding, "output", IngressQueue,
        Distributor);

    /// <summary>Every app keeps what it refuses for good on the dead-letter queue through this binding.</summary>
    public static readonly Binding DeadLetterOutput =
        new(OrderTopology.DeadLetterOutputBinding, "output", DeadLetterQueue, Distributor);

    public static readonly Dictionary<string, string> ProjectOfApp = new()
    {
        [Distributor] = "src/OrderDistribution.Distributor/OrderDistribution.Distributor.csproj",
        [ReceiverExpress] = "src/OrderDistribution.Receiver/OrderDistribution.Receiver.csproj",
        [ReceiverStandard] = "src/OrderDistribution.Receiver/OrderDistribution.Receiver.csproj",
    };

    public const string DistributorSettings = "src/OrderDistribution.Distributor/appsettings.json";
    public const string ReceiverSettings = "src/OrderDistribution.Receiver/appsettings.json";

    public const string PlaceholderScope = "skip";

    /// <summary>
    /// Liveness (container probes) and readiness (container readiness, Dapr's app health check), as the apps serve
    /// them.
    /// </summary>
    public const string LivenessPath = OrderDistribution.ServiceDefaults.ServiceDefaultsExtensions.LivenessPath;
    public const string ReadinessPath = OrderDistribution.ServiceDefaults.ServiceDefaultsExtensions.ReadinessPath;
}
