using System.Diagnostics;

namespace OrderDistribution.SidecarEmulator.Broker;

/// <summary>
/// The broker's pub/sub messages as <c>pubsub.redis</c> holds them: contexts, retries and pending entries.
/// </summary>
internal sealed partial class EmulatedBroker
{
    /// <summary>
    /// A pub/sub message taken off its queue: read now when it is new (its context starts), or a retry; a retry whose
    /// context ended while it waited is left pending instead, unless its retries outlive the context.
    /// </summary>
    /// <returns>Whether to deliver it now.</returns>
    public bool Take(string queue, EmulatedMessage message, QueueReport report, bool retriesOutliveContext = false)
    {
        if (message.ReadAt == 0)
        {
            message.ReadAt = Stopwatch.GetTimestamp();
            message.Retries = 0;
            message.LeftBeside = false;
            return true;
        }

        if (retriesOutliveContext || Stopwatch.GetTimestamp() < ContextEnd(message))
        {
            return true;
        }

        Park(queue, message, report);
        return false;
    }

    /// <summary>
    /// A pub/sub message answered RETRY: retried within its context, then kept pending or acknowledged; or, where its
    /// retries outlive the context, retried on, its entry left pending beside them once the context ends.
    /// </summary>
    public void RetryOrPark(string queue, EmulatedMessage message, QueueReport report,
        bool retriesOutliveContext = false)
    {
        var now = Stopwatch.GetTimestamp();
        var contextEnd = ContextEnd(message);
        var spent = options.MaxRetries >= 0 && message.Retries >= options.MaxRetries;
        if (retriesOutliveContext && !spent)
        {
            if (now + Ticks(options.RetryInterval) >= contextEnd)
            {
                LeaveBeside(queue, message, report);
            }

            message.Retries++;
            Requeue(queue, message);
        }
        else if (now >= contextEnd)
        {
            Park(queue, message, report);
        }
        else if (spent)
        {
            // The retries are spent while the context still runs: from 1.17 pubsub.redis acknowledges the message.
            if (Runtime.AcknowledgesSpentRetries)
            {
                report.AcknowledgeUnstored();
                Done(queue, message);
            }
            else
            {
                Park(queue, message, report);
            }
        }
        else if (now + Ticks(options.RetryInterval) >= contextEnd)
        {
            // The context ends during the wait: the retry is cancelled, the message stays pending.
            Park(queue, message, report);
        }
        else
        {
            message.Retries++;
            Requeue(queue, message);
        }
    }

    /// <summary>
    /// pubsub.redis's redelivery: every redeliverInterval, what has been pending processingTimeout is read again.
    /// </summary>
    public async Task HandOutPendingAsync()
    {
        using var timer = new PeriodicTimer(options.RedeliverInterval);
        try
        {
            while (await timer.WaitForNextTickAsync(_stop.Token))
            {
                var now = Stopwatch.GetTimestamp();
                foreach (var (queue, pending) in _pending)
                {
                    var due = new List<EmulatedMessage>();
                    lock (pending)
                    {
                        pending.RemoveAll(m =>
                        {
                            var isDue = now >= m.IdleSince + Ticks(options.ProcessingTimeout);
                            if (isDue)
                            {
                                due.Add(m);
                            }

                            return isDue;
                        });
                    }

                    foreach (var message in due)
                    {
                        bool acknowledged;
                        lock (message.Entry.Lock)
                        {
                            if (message.Entry.Pending == message)
                            {
                                message.Entry.Pending = null;
                            }

                            acknowledged = message.Entry.Acknowledged;
                        }

                        if (acknowledged)
                        {
                            // A copy whose entry a delivery settled after the copy was due: gone with it.
                            Done();
                            continue;
                        }

                        Reports[queue].HandOutAgain();
                        message.ReadAt = 0;
                        Queue(queue).Writer.TryWrite(message);
                    }
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private long ContextEnd(EmulatedMessage message) => message.ReadAt + Ticks(options.ProcessingTimeout);

    private static long Ticks(TimeSpan time) => (long)(time.TotalSeconds * Stopwatch.Frequency);

    private void Park(string queue, EmulatedMessage message, QueueReport report)
    {
        lock (message.Entry.Lock)
        {
            if (message.Entry.Acknowledged || message.Entry.Pending is not null)
            {
                // Another delivery of its entry settled it, or the entry already waits as a copy left beside this
                // delivery: this one just ends.
                Done();
                return;
            }

            message.Entry.Pending = message;
        }

        message.IdleSince = Runtime.KeepsHeldEntriesAliveWith(options.EntryKeepAliveInterval)
            ? Stopwatch.GetTimestamp()
            : message.ReadAt;
        report.Park();
        var pending = _pending.GetOrAdd(queue, _ => []);
        lock (pending)
        {
            pending.Add(message);
        }
    }

    /// <summary>
    /// Before 1.18.5: the entry of a message whose retries go on past its context stays pending in Redis, idle from
    /// when it was read, and is handed out again once idle <c>ProcessingTimeout</c>; a copy of it waits for that, once
    /// per delivery, unless the entry was acknowledged or already waits.
    /// </summary>
    private void LeaveBeside(string queue, EmulatedMessage message, QueueReport report)
    {
        if (message.LeftBeside)
        {
            return;
        }

        message.LeftBeside = true;
        var copy = new EmulatedMessage(message.Origin, message.Payload)
        {
            Entry = message.Entry,
            IdleSince = message.ReadAt,
        };
        lock (message.Entry.Lock)
        {
            if (message.Entry.Acknowledged || message.Entry.Pending is not null)
            {
                return;
            }

            message.Entry.Pending = copy;
            lock (_outstandingLock)
            {
                _outstanding++;
            }
        }

        report.Park();
        var pending = _pending.GetOrAdd(queue, _ => []);
        lock (pending)
        {
            pending.Add(copy);
        }
    }

    /// <summary>A delivery of the entry settled: acknowledged, and a copy of it still pending is gone.</summary>
    private void Acknowledge(string queue, EmulatedMessage message)
    {
        EmulatedMessage? waiting;
        lock (message.Entry.Lock)
        {
            message.Entry.Acknowledged = true;
            waiting = message.Entry.Pending;
            message.Entry.Pending = null;
        }

        if (waiting is null || !_pending.TryGetValue(queue, out var pending))
        {
            return;
        }

        bool removed;
        lock (pending)
        {
            removed = pending.Remove(waiting);
        }

        if (removed)
        {
            Done();
        }
    }
}
