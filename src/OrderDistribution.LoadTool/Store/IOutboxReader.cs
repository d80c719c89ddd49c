namespace OrderDistribution.LoadTool.Store;

/// <summary>
/// What the watcher needs of the store: the blobs of one outbox under a name prefix, a page at a time.
/// </summary>
public interface IOutboxReader
{
    /// <summary>Where the store is, for messages.</summary>
    string Endpoint { get; }

    IReadOnlyList<string> Outboxes { get; }

    /// <summary>Where the store's outages are told, if anywhere.</summary>
    StoreOutage? Outage => null;

    /// <summary>
    /// One page of the blobs of <paramref name="container"/> whose names start with <paramref name="prefix"/>; empty if
    /// the container does not exist.
    /// </summary>
    /// <param name="continuation">Where the previous page of the same listing ended; null for the first page.</param>
    /// <param name="pageSize">Names a page holds at most.</param>
    /// <param name="storedTimes">Whether each blob comes with its stored time (its metadata), which costs more.</param>
    Task<OutboxPage> ListPageAsync(
        string container, string prefix, string? continuation, int pageSize, bool storedTimes,
        CancellationToken cancellationToken);
}
