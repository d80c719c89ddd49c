using System.Collections.Concurrent;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// Which entries of one delivery are done for certain: published, or stored. The delivery is answered from
/// it when the handler finishes or its deadline passes, whichever comes first; an entry not marked by then
/// is answered RETRY.
/// </summary>
public sealed class DeliveryProgress
{
    private readonly ConcurrentDictionary<string, byte> _done = new(StringComparer.Ordinal);
    private string? _firstFailure;

    public void MarkDone(string entryId) => _done.TryAdd(entryId, 0);

    public bool IsDone(string entryId) => _done.ContainsKey(entryId);

    /// <summary>
    /// An entry could not be done now (it stays undone and is answered RETRY). The delivery logs one line for all of
    /// its failures, naming the first.
    /// </summary>
    public void MarkFailed(string entryId, string reason) =>
        Interlocked.CompareExchange(ref _firstFailure, $"{entryId}: {reason}", null);

    public string? FirstFailure => _firstFailure;
}
