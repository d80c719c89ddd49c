namespace OrderDistribution.LoadTool.Store;

/// <summary>A blob of an outbox as the watcher sees it.</summary>
/// <param name="StoredAt">When the receiver stored it (its <c>storedat</c> metadata), null if it wrote none.</param>
public sealed record OutboxBlob(string Container, string Name, DateTimeOffset LastModified,
    DateTimeOffset? StoredAt = null)
{
    /// <summary>The receiver's own stored time (milliseconds and finer), else Last-Modified (whole seconds).</summary>
    public DateTimeOffset StoredOrModified => StoredAt ?? LastModified;
}
