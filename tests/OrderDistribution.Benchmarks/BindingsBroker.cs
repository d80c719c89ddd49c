using System.Globalization;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.TestSupport.Brokers;
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
    internal const int Consumers = 4;

    /// <summary>What each order costs the app in the backlog run (the burst is the broker's cost alone).</summary>
    internal static readonly TimeSpan AppTime = TimeSpan.FromMilliseconds(5);

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

        BindingsBrokerSetting[] settings =
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
            var target = new BindingsBrokerTarget(rabbit, component, setting, $"bench-{index}");
            try
            {
                var burst = await BindingsBrokerScenarios.BurstAsync(target, bodies);
                var held = await BindingsBrokerScenarios.HeldAsync(target, bodies);
                var backlog = await BindingsBrokerScenarios.BacklogWithCrashAsync(target, bodies);
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

    private static string Shares(int[] acked) => string.Join('/', acked);
}
