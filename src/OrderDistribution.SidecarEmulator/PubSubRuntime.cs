namespace OrderDistribution.SidecarEmulator;

/// <summary>
/// What the Redis pub/sub component does with a message whose delivery failed once the inbound retries are spent
/// (docs/dapr-sidecar.md, "pubsub.redis after its retries are spent"; docs/runtimes.md).
/// </summary>
public enum PubSubRuntime
{
    /// <summary>Dapr 1.14 to 1.16: the message stays pending and is handed out again after <c>processingTimeout</c>.</summary>
    Dapr114To116,

    /// <summary>Dapr 1.17 and newer: the message is acknowledged, gone, unless the delivery's context had already ended.</summary>
    Dapr117AndNewer,
}
