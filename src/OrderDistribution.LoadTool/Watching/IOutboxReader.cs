namespace OrderDistribution.LoadTool.Watching;

/// <summary>What the watcher needs of the store: one listing of one outbox.</summary>
public interface IOutboxReader
{
    /// <summary>Where the store is, for messages.</summary>
    string Endpoint { get; }

    IReadOnlyList<string> Outboxes { get; }

    /// <summary>Every blob of one outbox with its stored time, in one listing (pages of 5,000); empty if the container does not exist.</summary>
    Task<IReadOnlyList<OutboxBlob>> ListAsync(string container, CancellationToken cancellationToken);
}
