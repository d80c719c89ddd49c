using System.Collections.Concurrent;

namespace OrderDistribution.LocalRun;

/// <summary>What happened to the messages of one topic.</summary>
public sealed class TopicReport
{
    private int _deliveries;
    private int _retried;
    private int _dropped;
    private int _wholeDeliveriesRedelivered;
    private long _longestAnswerTicks;

    public int Deliveries => Volatile.Read(ref _deliveries);

    public int Retried => Volatile.Read(ref _retried);

    public int Dropped => Volatile.Read(ref _dropped);

    public int WholeDeliveriesRedelivered => Volatile.Read(ref _wholeDeliveriesRedelivered);

    public TimeSpan LongestAnswer => TimeSpan.FromTicks(Interlocked.Read(ref _longestAnswerTicks));

    /// <summary>The messages answered DROP, by the id they were first published under (duplicates share it).</summary>
    public ConcurrentDictionary<string, byte[]> DroppedMessages { get; } = new();

    internal void Delivered(TimeSpan answeredAfter)
    {
        Interlocked.Increment(ref _deliveries);
        var ticks = answeredAfter.Ticks;
        long longest;
        while (ticks > (longest = Interlocked.Read(ref _longestAnswerTicks))
               && Interlocked.CompareExchange(ref _longestAnswerTicks, ticks, longest) != longest)
        {
        }
    }

    internal void Retry() => Interlocked.Increment(ref _retried);

    internal void Drop(string origin, byte[] payload)
    {
        Interlocked.Increment(ref _dropped);
        DroppedMessages.TryAdd(origin, payload);
    }

    internal void RedeliverWhole() => Interlocked.Increment(ref _wholeDeliveriesRedelivered);
}
