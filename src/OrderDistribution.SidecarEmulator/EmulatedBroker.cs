using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Threading.Channels;

namespace OrderDistribution.SidecarEmulator;

/// <summary>
/// The emulator's broker, shared by its API (which puts messages on queues) and its delivery loops (which take them
/// off and settle them): one queue per topic or output binding, the messages pending in the broker, and the count of
/// messages not yet done. A binding's message answered RETRY comes back after
/// <see cref="EmulatedSidecarOptions.RetryInterval"/> (RabbitMQ's nack with requeue). A pub/sub message is what
/// <c>pubsub.redis</c> makes of it: its delivery context runs <see cref="EmulatedSidecarOptions.ProcessingTimeout"/>
/// from when it was read, the inbound retries run inside it, and once they are spent the <see cref="Runtime"/> keeps
/// it pending or acknowledges it; a pending message is handed out again once it has been idle
/// <c>ProcessingTimeout</c>, looked for every <see cref="EmulatedSidecarOptions.RedeliverInterval"/>
/// (docs/dapr-sidecar.md, "pubsub.redis after its retries are spent"): idle from when it was read, or, on a runtime
/// that keeps the messages it holds alive, from when its context ended (<see
/// cref="EmulatedSidecarOptions.EntryKeepAliveInterval"/>).
/// </summary>
internal sealed class EmulatedBroker(EmulatedSidecarOptions options) : IDisposable
{
    private readonly ConcurrentDictionary<string, Channel<EmulatedMessage>> _queues = new();
    private readonly ConcurrentDictionary<string, List<EmulatedMessage>> _pending = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly Lock _outstandingLock = new();
    private TaskCompletionSource _quiet = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _outstanding;
    private long _nextId;

    /// <summary>Whose sidecar this is: what its pub/sub component does once the retries are spent.</summary>
    public DaprRuntimeProfile Runtime { get; set; } = options.Runtime;

    /// <summary>What happened to the messages of each subscribed queue.</summary>
    public ConcurrentDictionary<string, QueueReport> Reports { get; } = new();

    /// <summary>Cancelled when the emulator stops.</summary>
    public CancellationToken Stopping => _stop.Token;

    public ChannelReader<EmulatedMessage> Reader(string queue) => Queue(queue).Reader;

    /// <summary>
    /// Puts a message on a queue (twice when every message is delivered twice); it is outstanding until done.
    /// </summary>
    public void Put(string queue, byte[] payload)
    {
        var origin = Interlocked.Increment(ref _nextId).ToString(CultureInfo.InvariantCulture);
        var copies = options.DeliverEveryMessageTwice ? 2 : 1;
        lock (_outstandingLock)
        {
            if (_outstanding == 0)
            {
                _quiet = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            }

            _outstanding += copies;
        }

        for (var i = 0; i < copies; i++)
        {
            Queue(queue).Writer.TryWrite(new EmulatedMessage(origin, payload));
        }
    }

    /// <summary>A message answered SUCCESS: done.</summary>
    public void Done()
    {
        lock (_outstandingLock)
        {
            if (--_outstanding == 0)
            {
                _quiet.TrySetResult();
            }
        }
    }

    /// <summary>A message answered DROP: dead-lettered, done and never delivered again.</summary>
    public void Drop(EmulatedMessage message, QueueReport report)
    {
        report.Drop(message.Origin, message.Payload);
        Done();
    }

    /// <summary>A binding's message answered RETRY: back on its queue after the retry interval.</summary>
    public void Requeue(string queue, EmulatedMessage message) =>
        _ = Task.Delay(options.RetryInterval, _stop.Token)
            .ContinueWith(_ => Queue(queue).Writer.TryWrite(message), TaskScheduler.Default);

    /// <returns>False when messages were still outstanding at the timeout.</returns>
    public async Task<bool> WaitUntilQuietAsync(TimeSpan timeout)
    {
        Task quiet;
        lock (_outstandingLock)
        {
            quiet = _outstanding == 0 ? Task.CompletedTask : _quiet.Task;
        }

        try
        {
            await quiet.WaitAsync(timeout);
            return true;
        }
        catch (TimeoutException)
        {
            return false;
        }
    }

    /// <summary>Waits for a message on the queue; false once the emulator stops.</summary>
    public async Task<bool> WaitToReadAsync(ChannelReader<EmulatedMessage> reader)
    {
        try
        {
            return await reader.WaitToReadAsync(_stop.Token);
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>
    /// A pub/sub message taken off its queue: read now when it is new (its context starts), or a retry; a retry whose
    /// context ended while it waited is left pending instead.
    /// </summary>
    /// <returns>Whether to deliver it now.</returns>
    public bool Take(string queue, EmulatedMessage message, QueueReport report)
    {
        if (message.ReadAt == 0)
        {
            message.ReadAt = Stopwatch.GetTimestamp();
            message.Retries = 0;
            return true;
        }

        if (Stopwatch.GetTimestamp() < ContextEnd(message))
        {
            return true;
        }

        Park(queue, message, report);
        return false;
    }

    /// <summary>
    /// A pub/sub message answered RETRY: retried within its context, then kept pending or acknowledged.
    /// </summary>
    public void RetryOrPark(string queue, EmulatedMessage message, QueueReport report)
    {
        var now = Stopwatch.GetTimestamp();
        var contextEnd = ContextEnd(message);
        if (now >= contextEnd)
        {
            Park(queue, message, report);
        }
        else if (options.MaxRetries >= 0 && message.Retries >= options.MaxRetries)
        {
            // The retries are spent while the context still runs: from 1.17 pubsub.redis acknowledges the message.
            if (Runtime.AcknowledgesSpentRetries)
            {
                report.AcknowledgeUnstored(message.Origin);
                Done();
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

    /// <summary>Stops the redelivery and the delivery loops: each loop ends once its queue is complete.</summary>
    public async Task StopAsync()
    {
        await _stop.CancelAsync();
        foreach (var queue in _queues.Values)
        {
            queue.Writer.TryComplete();
        }
    }

    public void Dispose() => _stop.Dispose();

    private Channel<EmulatedMessage> Queue(string queue) =>
        _queues.GetOrAdd(queue, _ => Channel.CreateUnbounded<EmulatedMessage>());

    private long ContextEnd(EmulatedMessage message) => message.ReadAt + Ticks(options.ProcessingTimeout);

    private static long Ticks(TimeSpan time) => (long)(time.TotalSeconds * Stopwatch.Frequency);

    private void Park(string queue, EmulatedMessage message, QueueReport report)
    {
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
}
