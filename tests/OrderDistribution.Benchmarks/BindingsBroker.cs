using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.TestSupport.Brokers;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// RabbitMQ alone, driven the way bindings.rabbitmq drives it (docs/dapr-sidecar.md, "bindings.rabbitmq's channel"):
/// the output binding publishes each order persistent, one at a time, without publisher confirms; each input binding is
/// a connection of its own whose channel has a global prefetch (basic.qos global=true) and handles one message at a
/// time, acking it before the next. The queue is declared with components-bindings' durable/exclusive/deleteWhenUnused
/// values in a vhost made as scripts/run-local.sh makes it. Per queue setting, four figures:
/// burst: the consumers connected, then the orders published: first publish to last ack;
/// held: the most unacknowledged orders one consumer holds (what sits in its sidecar's memory) while its app is busy;
/// backlog: the orders published first, then the consumers connected one after another, each taking
/// <see cref="AppTime"/> per order as an app does: how long they take and how they share it;
/// crash: in the backlog run, the first consumer's connection dropped after it acknowledged 5%: how many orders
/// came again (redelivered) and whether every order was still acknowledged.
/// </summary>
internal static class BindingsBroker
{
    private const int Consumers = 4;

    /// <summary>What each order costs the app in the backlog run (the burst is the broker's cost alone).</summary>
    private static readonly TimeSpan AppTime = TimeSpan.FromMilliseconds(5);

    private sealed record Setting(string Name, string? QueueType, ushort GlobalPrefetch,
        ushort? DefaultConsumerPrefetch);

    /// <param name="asConfigured">Only the setting components-bindings/ has (its prefetchCount, the vhost's default
    /// type).</param>
    public static async Task<int> RunAsync(int count, bool asConfigured)
    {
        var bodies = OrderGenerator.Generate(count, seed: 1).Select(OrderJson.Serialize).ToList();
        await using var rabbit = await RabbitMqServer.StartAsync();
        await LocalRabbitMq.MakeVhostAsync(rabbit);
        var component = LocalRabbitMq.InputComponent(OrderTopology.IngressQueue);
        var version = (await rabbit.ControlAsync("eval", "rabbit_misc:version().")).Trim();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"bindings broker: {count} orders of {bodies.Average(b => b.Length):0} bytes, {Consumers} consumers " +
            $"acking one at a time, " +
            $"one publisher without confirms, RabbitMQ {version}, " +
            $"components' prefetchCount \"{component["prefetchCount"]}\", {Environment.ProcessorCount} cores"));

        Setting[] settings =
        [
            new("quorum, global prefetch 25 (the old components)", null, 25, null),
            new("quorum, global prefetch 0 (unbounded)", null, 0, null),
            new("quorum, global prefetch 0, broker default_consumer_prefetch 25", null, 0, 25),
            new("classic, global prefetch 25 (before quorum queues)", "classic", 25, null),
            new("classic, global prefetch 0 (unbounded)", "classic", 0, null),
        ];
        var configured = ushort.Parse(component["prefetchCount"] ?? "0", CultureInfo.InvariantCulture);
        var index = 0;
        var failures = 0;
        foreach (var setting in settings.Where(s => !asConfigured
                     || s is { QueueType: null, DefaultConsumerPrefetch: null } && s.GlobalPrefetch == configured))
        {
            index++;
            await SetDefaultConsumerPrefetchAsync(rabbit, setting.DefaultConsumerPrefetch ?? 0);
            var target = new Target(rabbit, component, setting, $"bench-{index}");
            try
            {
                var burst = await BurstAsync(target, bodies);
                var held = await HeldAsync(target, bodies);
                var backlog = await BacklogWithCrashAsync(target, bodies);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"bindings broker, {setting.Name}: burst {burst.Elapsed.TotalSeconds:0.0} s (published in " +
                    $"{burst.Published.TotalSeconds:0.0} s, " +
                    $"shares {Shares(burst.Acked)}); held per consumer {string.Join('/', held)} " +
                    $"({held.Max() * bodies.Average(b => b.Length) / 1e6:0.0} MB of bodies at most); backlog with " +
                    $"{AppTime.TotalMilliseconds:0} ms per order {backlog.Elapsed.TotalSeconds:0.0} s " +
                    $"(shares {Shares(backlog.Acked)}); crash of consumer 1 after {backlog.AckedBeforeCrash}: " +
                    $"{backlog.Redelivered} redelivered, " +
                    $"{backlog.Distinct}/{count} acknowledged"));
            }
            catch (OperationInterruptedException refused) when (refused.ShutdownReason?.ReplyCode == 540)
            {
                Console.WriteLine($"bindings broker, {setting.Name}: refused: {refused.ShutdownReason.ReplyText}");
            }
            catch (Exception failed) when (failed is TimeoutException or RabbitMQClientException or IOException)
            {
                Console.WriteLine(
                    $"bindings broker, {setting.Name}: FAILED: {failed.GetType().Name}: {failed.Message}");
                failures++;
            }
        }

        await SetDefaultConsumerPrefetchAsync(rabbit, 0);
        return failures == 0 ? 0 : 1;
    }

    // The broker's default per-consumer prefetch (advanced.config {rabbit, [{default_consumer_prefetch, {false, N}}]}),
    // set on the running node: each channel takes it when it opens.
    private static Task<string> SetDefaultConsumerPrefetchAsync(RabbitMqServer rabbit, ushort prefetch) =>
        rabbit.ControlAsync("eval",
            $"application:set_env(rabbit, default_consumer_prefetch, {{false, " +
            $"{prefetch.ToString(CultureInfo.InvariantCulture)}}}).");

    private static async Task<(TimeSpan Elapsed, TimeSpan Published, int[] Acked)> BurstAsync(Target target,
        List<byte[]> bodies)
    {
        var queue = target.Queue("burst");
        var acked = new ConcurrentDictionary<string, int>();
        var consumers = new List<Consumer>();
        try
        {
            for (var c = 0; c < Consumers; c++)
            {
                consumers.Add(await Consumer.StartAsync(target, queue, c, acked));
            }

            var watch = Stopwatch.StartNew();
            await PublishAsync(target, queue, bodies);
            var published = watch.Elapsed;
            await WaitAsync(target, () => acked.Count >= bodies.Count, $"{queue}: {bodies.Count} acknowledged");
            return (watch.Elapsed, published, [.. consumers.Select(c => c.Acked)]);
        }
        finally
        {
            await Consumer.StopAllAsync(consumers);
        }
    }

    private static async Task<int[]> HeldAsync(Target target, List<byte[]> bodies)
    {
        var queue = target.Queue("held");
        var busy = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumers = new List<Consumer>();
        try
        {
            for (var c = 0; c < Consumers; c++)
            {
                consumers.Add(
                    await Consumer.StartAsync(target, queue, c, new ConcurrentDictionary<string, int>(), busy));
            }

            await PublishAsync(target, queue, bodies);
            var held = new int[Consumers];
            var last = -1;
            for (var stable = 0; stable < 3; await Task.Delay(500))
            {
                var channels = await target.Rabbit.ControlAsync("list_channels", "-s", "name",
                    "messages_unacknowledged");
                var byConnection = channels.Split('\n', StringSplitOptions.RemoveEmptyEntries)
                    .Select(line => line.Split('\t'))
                    .Where(f => f.Length == 2)
                    .ToDictionary(f => f[0], f => int.Parse(f[1], CultureInfo.InvariantCulture));
                for (var c = 0; c < Consumers; c++)
                {
                    held[c] = byConnection.Where(kv => consumers[c].Owns(kv.Key)).Sum(kv => kv.Value);
                }

                stable = held.Sum() == last ? stable + 1 : 0;
                last = held.Sum();
            }

            return held;
        }
        finally
        {
            busy.SetResult();
            await Consumer.StopAllAsync(consumers);
        }
    }

    private static async Task<(TimeSpan Elapsed, int[] Acked, int AckedBeforeCrash, int Redelivered,
        int Distinct)> BacklogWithCrashAsync(
        Target target, List<byte[]> bodies)
    {
        var queue = target.Queue("backlog");
        await using (var declaring = await Consumer.StartAsync(target, queue, -1, new ConcurrentDictionary<string,
            int>(), consume: false))
        {
            await PublishAsync(target, queue, bodies);
        }

        var acked = new ConcurrentDictionary<string, int>();
        var consumers = new List<Consumer>();
        var crashAfter = bodies.Count / 20;
        try
        {
            var watch = Stopwatch.StartNew();
            for (var c = 0; c < Consumers; c++)
            {
                consumers.Add(await Consumer.StartAsync(target, queue, c, acked, appTime: AppTime));
            }

            await WaitAsync(target, () => consumers[0].Acked >= crashAfter || acked.Count >= bodies.Count,
                $"{queue}: consumer 1 at {crashAfter}");
            var beforeCrash = consumers[0].Acked;
            await consumers[0].CrashAsync();
            await WaitAsync(target, () => acked.Count >= bodies.Count, $"{queue}: {bodies.Count} acknowledged");
            return (watch.Elapsed, [.. consumers.Select(c => c.Acked)], beforeCrash, consumers.Sum(c => c.Redelivered),
                acked.Count);
        }
        finally
        {
            await Consumer.StopAllAsync(consumers);
        }
    }

    private static async Task PublishAsync(Target target, string queue, List<byte[]> bodies)
    {
        await using var connection = await target.Factory.CreateConnectionAsync("output binding");
        await using var channel = await connection.CreateChannelAsync();
        for (var i = 0; i < bodies.Count; i++)
        {
            var properties = new BasicProperties
            {
                Persistent = true,
                ContentType = "application/json",
                MessageId = i.ToString(CultureInfo.InvariantCulture),
            };
            await channel.BasicPublishAsync("", queue, mandatory: false, properties, bodies[i]);
        }
    }

    private static async Task WaitAsync(Target target, Func<bool> done, string what)
    {
        var deadline = Stopwatch.StartNew();
        while (!done())
        {
            if (deadline.Elapsed > TimeSpan.FromMinutes(2))
            {
                var queues = await target.Rabbit.ControlAsync("list_queues", "-p",
                    LocalRabbitMq.VhostOf(target.Component), "-s",
                    "name", "type", "messages_ready", "messages_unacknowledged", "consumers");
                throw new TimeoutException(
                    $"not reached within 2 minutes: {what}; queues (name type ready unacked consumers):\n{queues}");
            }

            await Task.Delay(20);
        }
    }

    private static string Shares(int[] acked) => string.Join('/', acked);

    private sealed record Target(RabbitMqServer Rabbit, TestSupport.Components.DaprComponent Component, Setting Setting,
        string Prefix)
    {
        public ConnectionFactory Factory { get; } = new()
        {
            Uri = new Uri(Rabbit.AmqpUri, LocalRabbitMq.VhostOf(Component)),
            AutomaticRecoveryEnabled = false,
        };

        public string Queue(string scenario) => $"{Prefix}-{scenario}";

        // As the component declares it: its durable/exclusive/deleteWhenUnused, no arguments (so the vhost's default
        // type); the classic settings name their type, which the component cannot.
        public Task<QueueDeclareOk> DeclareAsync(IChannel channel, string queue) =>
            channel.QueueDeclareAsync(
                queue,
                durable: Component["durable"] == "true",
                exclusive: Component["exclusive"] == "true",
                autoDelete: Component["deleteWhenUnused"] == "true",
                arguments: Setting.QueueType is null ? [] : new Dictionary<string,
                    object?>
                { ["x-queue-type"] = Setting.QueueType });
    }

    /// <summary>One input binding: a connection and channel of its own, handling one delivery at a time.</summary>
    private sealed class Consumer : IAsyncDisposable
    {
        private readonly IConnection _connection;
        private readonly IChannel _channel;
        private readonly string _name;
        private int _acked;
        private int _redelivered;
        private volatile bool _crashed;

        private Consumer(IConnection connection, IChannel channel, string name)
        {
            _connection = connection;
            _channel = channel;
            _name = name;
        }

        public int Acked => Volatile.Read(ref _acked);

        public int Redelivered => Volatile.Read(ref _redelivered);

        public static async Task<Consumer> StartAsync(
            Target target, string queue, int index, ConcurrentDictionary<string, int> acked,
                TaskCompletionSource? busy = null, bool consume = true, TimeSpan appTime = default)
        {
            var name = $"{queue}-input-{index.ToString(CultureInfo.InvariantCulture)}";
            var connection = await target.Factory.CreateConnectionAsync(name);
            var channel = await connection.CreateChannelAsync();
            var consumer = new Consumer(connection, channel, name);
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

        public static async Task StopAllAsync(List<Consumer> consumers)
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
}
