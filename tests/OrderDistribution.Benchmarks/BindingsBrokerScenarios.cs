using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using OrderDistribution.TestSupport.Brokers;
using RabbitMQ.Client;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// What <see cref="BindingsBroker"/> measures on one queue setting: a burst to connected consumers, what each consumer
/// holds while its app is busy, and a backlog shared by consumers connecting one after another, one of them crashing.
/// </summary>
internal static class BindingsBrokerScenarios
{
    private const int Consumers = BindingsBroker.Consumers;

    public static async Task<(TimeSpan Elapsed, TimeSpan Published, int[] Acked)> BurstAsync(
        BindingsBrokerTarget target, List<byte[]> bodies)
    {
        var queue = target.Queue("burst");
        var acked = new ConcurrentDictionary<string, int>();
        var consumers = new List<BindingConsumer>();
        try
        {
            for (var c = 0; c < Consumers; c++)
            {
                consumers.Add(await BindingConsumer.StartAsync(target, queue, c, acked));
            }

            var watch = Stopwatch.StartNew();
            await PublishAsync(target, queue, bodies);
            var published = watch.Elapsed;
            await WaitAsync(target, () => acked.Count >= bodies.Count, $"{queue}: {bodies.Count} acknowledged");
            return (watch.Elapsed, published, [.. consumers.Select(c => c.Acked)]);
        }
        finally
        {
            await BindingConsumer.StopAllAsync(consumers);
        }
    }

    public static async Task<int[]> HeldAsync(BindingsBrokerTarget target, List<byte[]> bodies)
    {
        var queue = target.Queue("held");
        var busy = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumers = new List<BindingConsumer>();
        try
        {
            for (var c = 0; c < Consumers; c++)
            {
                consumers.Add(
                    await BindingConsumer.StartAsync(target, queue, c, new ConcurrentDictionary<string, int>(), busy));
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
            await BindingConsumer.StopAllAsync(consumers);
        }
    }

    public static async Task<(TimeSpan Elapsed, int[] Acked, int AckedBeforeCrash, int Redelivered,
        int Distinct)> BacklogWithCrashAsync(
        BindingsBrokerTarget target, List<byte[]> bodies)
    {
        var queue = target.Queue("backlog");
        await using (var declaring = await BindingConsumer.StartAsync(target, queue, -1,
            new ConcurrentDictionary<string, int>(), consume: false))
        {
            await PublishAsync(target, queue, bodies);
        }

        var acked = new ConcurrentDictionary<string, int>();
        var consumers = new List<BindingConsumer>();
        var crashAfter = bodies.Count / 20;
        try
        {
            var watch = Stopwatch.StartNew();
            for (var c = 0; c < Consumers; c++)
            {
                consumers.Add(
                    await BindingConsumer.StartAsync(target, queue, c, acked, appTime: BindingsBroker.AppTime));
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
            await BindingConsumer.StopAllAsync(consumers);
        }
    }

    private static async Task PublishAsync(BindingsBrokerTarget target, string queue, List<byte[]> bodies)
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

    private static async Task WaitAsync(BindingsBrokerTarget target, Func<bool> done, string what)
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
}
