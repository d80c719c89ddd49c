namespace OrderDistribution.LoadTool.Store;

/// <summary>One page of an outbox's listing, and where the next page starts (null: the listing is done).</summary>
public sealed record OutboxPage(IReadOnlyList<OutboxBlob> Blobs, string? Continuation);
