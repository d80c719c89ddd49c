namespace OrderDistribution.SidecarEmulator.Broker;

/// <summary>
/// One entry of a Redis stream: acknowledged once any delivery of it is settled, and pending at most once at a time.
/// </summary>
internal sealed class StreamEntry
{
    public Lock Lock { get; } = new();

    public bool Acknowledged { get; set; }

    /// <summary>The copy of it waiting to be handed out again, if any.</summary>
    public EmulatedMessage? Pending { get; set; }
}
