
namespace OrderDistribution.Contracts;

/// <summary>
/// How the trio is wired: the queues, the Dapr components that reach them and the blob containers. The apps'
/// options, the load tool and the tests take their names from here; the deployment files are tested against it.
/// </summary>
public static class OrderTopology
{
    public const string PubSubName = "order-pubsub";

    public const string IngressQueue = "q-order-ingress";

    /// <summary>The distributor's input binding on the ingress queue.</summary>
    public const string IngressInputBinding = "q-order-ingress-input";

    /// <summary>Local bindings model only: how the load tool puts orders on the ingress queue.</summary>
    public const string IngressOutputBinding = "q-order-ingress-output";

    /// <summary>
    /// Where the apps keep each message they refuse for good (not an order, invalid, too large, refused by the
    /// sidecar), as a <see cref="DeadLetter"/> with its body and the reason: a topic of the pub/sub component, a queue
    /// in
    /// RabbitMQ and Service Bus.
    /// </summary>
    public const string DeadLetterQueue = "q-order-deadletter";

    /// <summary>The bindings model's output binding on <see cref="DeadLetterQueue"/>, in every app's scope.</summary>
    public const string DeadLetterOutputBinding = "q-order-deadletter-output";

    /// <summary>Where the load tool keeps a generated burst (<c>generate --to-blob</c>).</summary>
    public const string TestDataContainer = "test-data";

    /// <summary>
    /// Where the load tool measures storage alone (<c>ceiling</c>). Azure deploys it, with the user's rights on it
    /// alone; locally the tool creates it and deletes it again.
    /// </summary>
    public const string StorageAloneContainer = "storage-alone";

    /// <summary>
    /// The load tool's own: the marker blob whose lease lets one burst at a time run against the store. Azure deploys
    /// it, with the user's rights on it; locally the tool creates it.
    /// </summary>
    public const string LoadToolContainer = "order-load";

    /// <summary>The receiver instances, one per delivery.</summary>
    public static readonly IReadOnlyList<string> Instances =
        [InstanceOf(Delivery.Express), InstanceOf(Delivery.Standard)];

    public static readonly IReadOnlyList<string> Outboxes = [.. Instances.Select(OutboxOf)];

    public static string InstanceOf(Delivery delivery) => delivery switch
    {
        Delivery.Express => "express",
        Delivery.Standard => "standard",
        _ => throw new InvalidOrderException($"unknown delivery '{delivery}'"),
    };

    public static string QueueOf(string instance) => $"q-order-{instance}";

    public static string InputBindingOf(string instance) => $"q-order-{instance}-input";

    public static string OutputBindingOf(string instance) => $"q-order-{instance}-output";

    public static string OutboxOf(string instance) => $"{instance}-outbox";
}
