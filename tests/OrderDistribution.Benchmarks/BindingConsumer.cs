using System.Collections.Concurrent;
using System.Globalization;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;

namespace OrderDistribution.Benchmarks;

/// <summary>One input binding: a connection and channel of its own, handling one delivery at a time.</summary>
internal sealed class BindingConsumer : IAsyncDisposable
{
    private readonly IConnection _connection;
    private readonly IChannel _channel;
    private readonly string _name;
    private int _acked;
    private int _redelivered;
    private volatile bool _crashed;

    private BindingConsumer(IConnection connection, IChannel channel, string name)
    {
        _connection = connection;
        _channel = channel;
        _name = name;
    }

    public int Acked => Volatile.Read(ref _acked);

    public int Redelivered => Volatile.Read(ref _redelivered);

    public static async Task<BindingConsumer> StartAsync(
        BindingsBrokerTarget target, string queue, int index, ConcurrentDictionary<string, int> acked,
            TaskCompletionSource? busy = null, bool consume = true, TimeSpan appTime = default)
    {
        var name = $"{queue}-input-{index.ToString(CultureInfo.InvariantCulture)}";
        var connection = await target.Factory.CreateConnectionAsync(name);
        var channel = await connection.CreateChannelAsync();
        var consumer = new BindingConsumer(connection, channel, name);
        try
        {
            await channel.BasicQosAsync(0, target.Setting.GlobalPrefetch, global: true);
            await target.DeclareAsync(channel, queue);
            if (consume)
            {
                await consumer.ConsumeAsync(queue, acked, busy, appTime);
            }
        }
        catch
        {
            await consumer.DisposeAsync();
            throw;
        }

        return consumer;
    }

    private async Task ConsumeAsync(string queue, ConcurrentDictionary<string, int> acked,
        TaskCompletionSource? busy, TimeSpan appTime)
    {
        var channel = _channel;
        var consumer = this;

        var handler = new AsyncEventingBasicConsumer(channel);
        handler.ReceivedAsync += async (_, delivery) =>
        {
            if (busy is not null)
            {
                await busy.Task;
                return;
            }

            if (consumer._crashed)
            {
                return;
            }

            if (delivery.Redelivered)
            {
                Interlocked.Increment(ref consumer._redelivered);
            }

            if (appTime > TimeSpan.Zero)
            {
                await Task.Delay(appTime);
                if (consumer._crashed)
                {
                    return;
                }
            }

            await channel.BasicAckAsync(delivery.DeliveryTag, multiple: false);
            Interlocked.Increment(ref consumer._acked);
            acked.AddOrUpdate(delivery.BasicProperties.MessageId!, 1, (_, n) => n + 1);
        };
        await channel.BasicConsumeAsync(queue, autoAck: false, handler);
    }

    /// <summary>
    /// Whether a channel as list_channels names it ("client address:port -> server address:port (n)") is this
    /// one's.
    /// </summary>
    public bool Owns(string channel) =>
        channel.Contains($":{_connection.LocalPort.ToString(CultureInfo.InvariantCulture)} ->",
            StringComparison.Ordinal);

    /// <summary>
    /// The connection dropped, as when the sidecar dies: RabbitMQ requeues what it held unacknowledged.
    /// </summary>
    public async Task CrashAsync()
    {
        _crashed = true;
        await _connection.AbortAsync();
    }

    public static async Task StopAllAsync(List<BindingConsumer> consumers)
    {
        foreach (var consumer in consumers)
        {
            await consumer.DisposeAsync();
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            await _channel.DisposeAsync();
            await _connection.DisposeAsync();
        }
        catch (Exception gone) when (gone is AlreadyClosedException or OperationInterruptedException or IOException)
        {
            // Crashed before.
        }
    }

    public override string ToString() => _name;
}
