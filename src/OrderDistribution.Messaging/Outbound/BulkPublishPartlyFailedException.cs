namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// The sidecar named some entries of a bulk publish as failed: those are tried again, and only those.
/// </summary>
public sealed class BulkPublishPartlyFailedException(IReadOnlyList<FailedEntry> failed)
    : Exception($"{failed.Count} entries were not published, first {failed[0].EntryId}: {failed[0].Error}")
{
    public IReadOnlyList<FailedEntry> Failed { get; } = failed;
}
