namespace OrderDistribution.SidecarEmulator.Broker;

/// <summary>A message on one of the broker's queues, with where it stands in its pub/sub delivery context.</summary>
internal sealed class EmulatedMessage(string origin, byte[] payload)
{
    /// <summary>The id it was first published under (copies delivered twice share it).</summary>
    public string Origin { get; } = origin;

    public byte[] Payload { get; } = payload;

    /// <summary>
    /// When the component read it (or handed it out again), its context's start; 0 while it waits unread.
    /// </summary>
    public long ReadAt { get; set; }

    /// <summary>
    /// Since when Redis sees it idle once its context ended: when it was read, or, where the component keeps the
    /// messages it holds alive, when it stopped holding it.
    /// </summary>
    public long IdleSince { get; set; }

    /// <summary>The inbound retries spent in its current context.</summary>
    public int Retries { get; set; }

    /// <summary>
    /// The broker's entry it is: shared by the copies handed out while an earlier delivery of it runs.
    /// </summary>
    public StreamEntry Entry { get; init; } = new();

    /// <summary>
    /// Whether its entry was left pending beside this delivery's retries once its context ended (before 1.18.5).
    /// </summary>
    public bool LeftBeside { get; set; }
}
