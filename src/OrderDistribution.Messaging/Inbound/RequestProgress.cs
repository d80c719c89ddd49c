using System.Collections.Concurrent;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// Which entries of one request are done for certain (published, or stored) and which can never be (dropped). The
/// request is answered from it when the handler finishes or its deadline passes, whichever comes first; an entry not
/// marked by then is answered RETRY.
/// </summary>
/// <param name="entries">How many entries the request has: room for all is made at once, instead of growing as they are
/// done.</param>
public sealed class RequestProgress(int entries) : IOrderProgress
{
    private readonly ConcurrentDictionary<string, byte> _done =
        new(Environment.ProcessorCount, entries, StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, string> _dropped = new(StringComparer.Ordinal);
    private string? _firstFailure;

    public void MarkDone(string entryId) => _done.TryAdd(entryId, 0);

    public bool IsDone(string entryId) => _done.ContainsKey(entryId);

    /// <summary>
    /// The entry is wrong for good (the sidecar or the broker refuses this order, and would every time): it is answered
    /// DROP, and the request logs one warning line for it with <paramref name="reason"/>, which names the order.
    /// </summary>
    public void MarkDropped(string entryId, string reason) => _dropped.TryAdd(entryId, reason);

    /// <returns>Why the entry was dropped; null when it was not.</returns>
    public string? DroppedBecause(string entryId) => _dropped.GetValueOrDefault(entryId);

    /// <summary>
    /// An entry could not be done now (it stays undone and is answered RETRY). The request logs one line for all of
    /// its failures, naming the first (on one line: the entry id and the reason may be text from the wire).
    /// </summary>
    public void MarkFailed(string entryId, string reason)
    {
        if (Volatile.Read(ref _firstFailure) is null)
        {
            Interlocked.CompareExchange(ref _firstFailure, LogText.Escape($"{entryId}: {reason}"), null);
        }
    }

    public string? FirstFailure => _firstFailure;
}
