namespace OrderDistribution.LoadTool.Queues;

/// <summary>
/// How many orders wait on each of the trio's queues now: not yet handed to their app, or handed and not acknowledged.
/// </summary>
public interface IQueueDepths : IAsyncDisposable
{
    /// <summary>Each queue's orders waiting; a queue the broker does not have yet is left out.</summary>
    Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken cancellationToken);
}
