using System.Collections.Concurrent;
using System.Globalization;
using System.Threading.Channels;

namespace OrderDistribution.SidecarEmulator.Broker;

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
/// cref="EmulatedSidecarOptions.EntryKeepAliveInterval"/>). Before 1.18.5 a single delivery's retries outlive its
/// context: they go on, and once the message has been out <c>ProcessingTimeout</c> it is handed out again beside them,
/// a copy of the same entry; any delivery settled acknowledges the entry, and a copy still pending goes with it.
/// </summary>
internal sealed partial class EmulatedBroker(EmulatedSidecarOptions options) : IDisposable
{
    private readonly ConcurrentDictionary<string, Channel<EmulatedMessage>> _queues = new();
    private readonly ConcurrentDictionary<string, List<EmulatedMessage>> _pending = new();
    private readonly ConcurrentDictionary<string, ConcurrentQueue<byte[]>> _kept = new();
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

    /// <summary>The messages of <paramref name="queue"/> left pending now, waiting to be handed out again.</summary>
    public int PendingCount(string queue)
    {
        if (!_pending.TryGetValue(queue, out var pending))
        {
            return 0;
        }

        lock (pending)
        {
            return pending.Count;
        }
    }

    /// <summary>
    /// Puts a message on a queue (twice when every message is delivered twice); it is outstanding until done.
    /// </summary>
    public void Put(string queue, byte[] payload)
    {
        if (_kept.TryGetValue(queue, out var kept))
        {
            kept.Enqueue(payload);
            return;
        }

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

    /// <summary>A message answered SUCCESS: its entry acknowledged, and done.</summary>
    public void Done(string queue, EmulatedMessage message)
    {
        Acknowledge(queue, message);
        Done();
    }

    private void Done()
    {
        lock (_outstandingLock)
        {
            if (--_outstanding == 0)
            {
                _quiet.TrySetResult();
            }
        }
    }

    /// <summary>
    /// A queue nobody is delivered from, whose messages stay for a person to read (a dead-letter queue): what is put
    /// on it is kept, never outstanding.
    /// </summary>
    public IReadOnlyCollection<byte[]> Keep(string queue) => _kept.GetOrAdd(queue, _ => new ConcurrentQueue<byte[]>());

    /// <summary>
    /// A message answered DROP, done and never delivered again: as daprd does, forwarded to the subscription's
    /// dead-letter topic when it declares one (<paramref name="deadLetterTopic"/>), else discarded.
    /// </summary>
    public void Drop(string queue, EmulatedMessage message, QueueReport report, string? deadLetterTopic)
    {
        report.Drop(deadLettered: deadLetterTopic is not null);
        if (deadLetterTopic is not null)
        {
            Put(deadLetterTopic, message.Payload);
        }

        Done(queue, message);
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
}
