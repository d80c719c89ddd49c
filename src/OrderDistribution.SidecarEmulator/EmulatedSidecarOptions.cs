namespace OrderDistribution.SidecarEmulator;

public sealed record EmulatedSidecarOptions
{
    public int MaxMessagesCount { get; init; } = 250;

    public TimeSpan MaxAwait { get; init; } = TimeSpan.FromMilliseconds(40);

    /// <summary>Bulk requests a subscriber gets at once (the sidecar's concurrency over its batch size).</summary>
    public int ConcurrentBulkRequests { get; init; } = 2;

    /// <summary>
    /// Single requests a subscriber gets at once: the component's <c>concurrency</c>, 500 in this project.
    /// </summary>
    public int ConcurrentSingleRequests { get; init; } = 500;

    /// <summary>
    /// Input binding requests an app gets at once per queue: the RabbitMQ binding's consumers on that queue
    /// (run-local.sh's default; a test holds them equal).
    /// </summary>
    public int ConcurrentBindingRequests { get; init; } = 4;

    /// <summary>
    /// The inbound retry policy's interval (resiliency.yaml's <c>duration</c>): how long a message answered RETRY (or a
    /// whole batch answered with an error) waits before the sidecar delivers it again; for an input binding, how long
    /// the requeued message waits. Sooner, a store that is slow to answer meets a storm of redeliveries on the cores it
    /// shares with the apps.
    /// </summary>
    public TimeSpan RetryInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// The inbound retry policy's <c>maxRetries</c> for pub/sub deliveries: -1 retries until the delivery's context
    /// ends (<see cref="ProcessingTimeout"/>), or, for a single delivery before 1.18.5, until the app takes the message
    /// (<see cref="DaprRuntimeProfile.EndsSingleRetriesWithContext"/>). What happens once they are spent is the
    /// <see cref="Runtime"/>'s.
    /// </summary>
    public int MaxRetries { get; init; } = -1;

    /// <summary>
    /// The Redis component's <c>processingTimeout</c>: a message's delivery context, its retries included (but a single
    /// delivery's before 1.18.5), ends this long after the component read it, and a message pending this long is handed
    /// out again.
    /// </summary>
    public TimeSpan ProcessingTimeout { get; init; } = TimeSpan.FromSeconds(20);

    /// <summary>
    /// The Redis component's <c>redeliverInterval</c>: how often it looks for pending messages to hand out again.
    /// </summary>
    public TimeSpan RedeliverInterval { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>
    /// The Redis component's <c>entryKeepAliveInterval</c>: null for none (the component's default), zero to turn the
    /// keep-alive off. On a runtime that keeps held messages alive
    /// (<see cref="DaprRuntimeProfile.KeepsHeldEntriesAlive"/>) and unless it is zero, a message whose context ended
    /// is handed out again once it has been pending <see cref="ProcessingTimeout"/> from then, not from when it was
    /// read: modelled as if the last keep-alive came as the context ended, the longest wait (the component's own comes
    /// up to one interval before).
    /// </summary>
    public TimeSpan? EntryKeepAliveInterval { get; init; }

    /// <summary>
    /// Whose sidecar the emulator is: what its pub/sub component makes of a message whose retries are spent, and what
    /// metadata an output binding call gets (<see cref="EmulatedSidecar.BindingMessages"/>).
    /// </summary>
    public DaprRuntimeProfile Runtime { get; init; } = DaprRuntimeProfile.Dapr117;

    /// <summary>
    /// The share of published messages the broker refuses, answered as the sidecar answers a failed publish.
    /// </summary>
    public double PublishFailureRate { get; init; }

    /// <summary>Every message is put on its queue twice, as an at-least-once broker may deliver it.</summary>
    public bool DeliverEveryMessageTwice { get; init; }

    public int Seed { get; init; } = 1;

    /// <summary>
    /// The recording mode: every request on the sidecar's API is kept (<see cref="EmulatedSidecar.Requests"/>), each
    /// output binding call with the metadata the runtime gives it (<see cref="EmulatedSidecar.BindingMessages"/>). Off
    /// for runs at scale, where it would hold every order.
    /// </summary>
    public bool RecordRequests { get; init; }

    /// <summary>
    /// The gRPC mode: the sidecar's gRPC <c>InvokeBinding</c> on a port of its own (<see
    /// cref="EmulatedSidecar.GrpcAddress"/>, HTTP/2), as daprd serves it to Dapr's SDK.
    /// </summary>
    public bool ServeGrpc { get; init; }

    /// <summary>
    /// What <c>GET /v1.0/metadata</c> answers at first (<see cref="EmulatedSidecar.Metadata"/>); 404 when null.
    /// </summary>
    public string? Metadata { get; init; } = """{"id":"sidecar-emulator"}""";

    /// <summary>
    /// For tests of what the apps and the load tool send: requests recorded, a sidecar that offers no metadata until
    /// the test says what it runs, and the oldest runtime's binding metadata until the test picks another.
    /// </summary>
    public static EmulatedSidecarOptions Recording =>
        new() { RecordRequests = true, Metadata = null, Runtime = DaprRuntimeProfile.Dapr114 };
}
