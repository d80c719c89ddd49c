namespace OrderDistribution.SidecarEmulator.Broker;

/// <summary>What happened to the messages of one queue.</summary>
public sealed class QueueReport
{
    private int _requests;
    private int _retried;
    private int _dropped;
    private int _deadLettered;
    private int _wholeRequestsRedelivered;
    private long _longestAnswerTicks;
    private int _acknowledgedUnstored;
    private int _parked;
    private int _handedOutAgain;

    /// <summary>The requests the sidecar made to the app for this queue.</summary>
    public int Requests => Volatile.Read(ref _requests);

    public int Retried => Volatile.Read(ref _retried);

    /// <summary>Messages answered DROP: forwarded to the subscription's dead-letter topic, or discarded.</summary>
    public int Dropped => Volatile.Read(ref _dropped);

    /// <summary>
    /// Messages answered DROP that went to the subscription's dead-letter topic; the rest of <see cref="Dropped"/> were
    /// discarded, as daprd discards a DROP when the subscription declares no dead-letter topic.
    /// </summary>
    public int DeadLettered => Volatile.Read(ref _deadLettered);

    /// <summary>
    /// Bulk requests that failed as a whole (an error status or no answer), so that every entry is delivered again.
    /// </summary>
    public int WholeRequestsRedelivered => Volatile.Read(ref _wholeRequestsRedelivered);

    /// <summary>
    /// Messages answered RETRY that the pub/sub component acknowledged once the retries were spent (Dapr 1.17 and
    /// newer): gone from the broker, and not stored. Each is a lost order.
    /// </summary>
    public int AcknowledgedUnstored => Volatile.Read(ref _acknowledgedUnstored);

    /// <summary>
    /// Times a pub/sub message was left pending in the broker: its context ended, or its retries were spent before
    /// 1.17.
    /// </summary>
    public int LeftPending => Volatile.Read(ref _parked);

    /// <summary>Times a pending message was handed out again after processingTimeout.</summary>
    public int HandedOutAgain => Volatile.Read(ref _handedOutAgain);

    public TimeSpan LongestAnswer => TimeSpan.FromTicks(Interlocked.Read(ref _longestAnswerTicks));

    internal void Answered(TimeSpan after)
    {
        Interlocked.Increment(ref _requests);
        var ticks = after.Ticks;
        long longest;
        while (ticks > (longest = Interlocked.Read(ref _longestAnswerTicks))
               && Interlocked.CompareExchange(ref _longestAnswerTicks, ticks, longest) != longest)
        {
        }
    }

    internal void Retry() => Interlocked.Increment(ref _retried);

    internal void Drop(bool deadLettered)
    {
        Interlocked.Increment(ref _dropped);
        if (deadLettered)
        {
            Interlocked.Increment(ref _deadLettered);
        }
    }

    internal void AcknowledgeUnstored() => Interlocked.Increment(ref _acknowledgedUnstored);

    internal void Park() => Interlocked.Increment(ref _parked);

    internal void HandOutAgain() => Interlocked.Increment(ref _handedOutAgain);

    internal void RedeliverWhole() => Interlocked.Increment(ref _wholeRequestsRedelivered);
}
