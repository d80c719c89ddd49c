namespace OrderDistribution.LocalRun;

public sealed record SidecarDoubleOptions
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
    /// How long a message answered RETRY (or a whole batch answered with an error) waits before it is delivered again:
    /// a second, as the sidecars' resiliency.yaml retries. Sooner, a store that is slow to answer meets a storm of
    /// redeliveries on the cores it shares with the apps.
    /// </summary>
    public TimeSpan RedeliveryDelay { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>The share of published messages the broker refuses, answered as the sidecar answers a failed publish.</summary>
    public double PublishFailureRate { get; init; }

    /// <summary>Every message is put on its queue twice, as an at-least-once broker may deliver it.</summary>
    public bool DeliverEveryMessageTwice { get; init; }

    public int Seed { get; init; } = 1;
}
