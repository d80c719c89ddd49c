namespace OrderDistribution.LoadTool.Watching;

/// <summary>What the outboxes held when the watch ended.</summary>
/// <param name="Expected">How many valid orders were expected as blobs (poison is never expected).</param>
/// <param name="LastStoredAt">The last valid order's stored time (the receiver's <c>storedat</c>, else
/// Last-Modified).</param>
public sealed record WatchReport(
    int Expected,
    IReadOnlyDictionary<string, int> CountPerContainer,
    IReadOnlyList<long> Missing,
    IReadOnlyList<long> Duplicated,
    DateTimeOffset ScheduledAt,
    DateTimeOffset? LastStoredAt)
{
    /// <summary>How many poison orders were in the burst: the apps drop them, so they never become blobs.</summary>
    public int PoisonExpected { get; init; }

    /// <summary>
    /// How many of the burst's poison orders were read back from the dead-letter queue; null when it was not read.
    /// </summary>
    public int? PoisonDeadLettered { get; init; }

    /// <summary>Poison orders that did become blobs: the apps should have dropped them.</summary>
    public IReadOnlyList<long> PoisonStored { get; init; } = [];

    /// <summary>When each stored valid order was stored (its first copy), for the per-second series.</summary>
    public IReadOnlyList<DateTimeOffset> StoredTimes { get; init; } = [];

    /// <summary>Whether every stored order carried the receivers' <c>storedat</c> (millisecond resolution).</summary>
    public bool StoredAtFromMetadata { get; init; } = true;

    /// <summary>
    /// What the looks cost the store: listing requests made, and blob names (no metadata) they returned.
    /// </summary>
    public int ListingCalls { get; init; }

    public long NamesListed { get; init; }

    /// <summary>
    /// The last listing, of each outbox whole with the stored times: its requests, and names returned.
    /// </summary>
    public int FinalListingCalls { get; init; }

    public long FinalNamesListed { get; init; }

    public int Stored => Expected - Missing.Count;

    public bool Complete => Missing.Count == 0;

    /// <summary>
    /// From scheduling until the last valid order was stored, to the millisecond when the receivers wrote
    /// <c>storedat</c>.
    /// </summary>
    public TimeSpan? CycleTime => LastStoredAt - ScheduledAt;

    /// <summary>
    /// The orders stored over the cycle time: a burst that timed out is not credited with the orders it lacks.
    /// </summary>
    public double? OrdersPerSecond =>
        CycleTime is { TotalSeconds: > 0 } cycle && Stored > 0 ? Stored / cycle.TotalSeconds : null;
}
