namespace OrderDistribution.Messaging.Outbound;

/// <summary>An entry of a bulk publish the sidecar names as not published, with its reason.</summary>
public sealed record FailedEntry(string EntryId, string Error);
