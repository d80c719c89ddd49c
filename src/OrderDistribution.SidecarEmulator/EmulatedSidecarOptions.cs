namespace OrderDistribution.SidecarEmulator;

public sealed record EmulatedSidecarOptions
{
    public int MaxMessagesCount { get; init; } = 250;

    public TimeSpan MaxAwait { get; init; } = TimeSpan.FromMilliseconds(40);

    /// <summary>Bulk deliveries a subscriber gets at once (the sidecar's concurrency over its batch size).</summary>
    public int ConcurrentBulkDeliveries { get; init; } = 2;

    /// <summary>Single deliveries a subscriber gets at once: the component's <c>concurrency</c>, 500 in this project.</summary>
    public int ConcurrentSingleDeliveries { get; init; } = 500;

    /// <summary>Input binding deliveries an app gets at once per queue: the RabbitMQ binding's consumers on that queue (run-local.sh's default; a test holds them equal).</summary>
    public int ConcurrentBindingDeliveries { get; init; } = 4;

    /// <summary>
    /// The inbound retry policy's interval (resiliency.yaml's <c>duration</c>): how long a message answered RETRY (or a
    /// whole batch answered with an error) waits before the sidecar delivers it again; for an input binding, how long
    /// the requeued message waits. Sooner, a store that is slow to answer meets a storm of redeliveries on the cores it
    /// shares with the apps.
    /// </summary>
    public TimeSpan RetryInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// The inbound retry policy's <c>maxRetries</c> for pub/sub deliveries: -1 retries until the delivery's context ends
    /// (<see cref="ProcessingTimeout"/>). What happens once they are spent is the <see cref="Runtime"/>'s.
    /// </summary>
    public int MaxRetries { get; init; } = -1;

    /// <summary>
    /// The Redis component's <c>processingTimeout</c>: a message's delivery context, its retries included, ends this long
    /// after the component read it, and a message pending this long is handed out again.
    /// </summary>
    public TimeSpan ProcessingTimeout { get; init; } = TimeSpan.FromSeconds(20);

    /// <summary>The Redis component's <c>redeliverInterval</c>: how often it looks for pending messages to hand out again.</summary>
    public TimeSpan RedeliverInterval { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Whose pub/sub component the emulator is: what becomes of a message whose retries are spent.</summary>
    public PubSubRuntime Runtime { get; init; } = PubSubRuntime.Dapr117AndNewer;

    /// <summary>The share of published messages the broker refuses, answered as the sidecar answers a failed publish.</summary>
    public double PublishFailureRate { get; init; }

    /// <summary>Every message is put on its queue twice, as an at-least-once broker may deliver it.</summary>
    public bool DeliverEveryMessageTwice { get; init; }

    public int Seed { get; init; } = 1;
}
