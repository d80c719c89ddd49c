using Azure.Core;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Queues;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// What a burst costs and where it waits, over its window. On the local run: the processes
/// <c>scripts/run-local.sh</c> recorded (<see cref="LocalProcesses"/>), and the broker it names in the same folder's
/// <c>queues</c> file (<c>redis &lt;host:port&gt;</c> or <c>rabbitmq &lt;vhost&gt;</c>) asked every second for the
/// orders waiting on each queue (a RabbitMQ without its management API every 10 s, <see cref="RabbitMqSource"/>). In
/// Azure: the Service Bus queues, every second; the cost comes from Azure Monitor
/// (<c>scripts/azure-burst.sh</c>). Without either (in-process, a trio started by hand) it measures nothing.
/// </summary>
public sealed class BurstMeasurement : IAsyncDisposable
{
    /// <summary>The trio's queues, in the order it uses them.</summary>
    public static readonly IReadOnlyList<string> Queues =
        [OrderTopology.IngressQueue, .. OrderTopology.Instances.Select(OrderTopology.QueueOf)];

    private readonly CostSampler? _cost;
    private readonly QueueSampler? _queues;

    private BurstMeasurement(CostSampler? cost, QueueSampler? queues)
    {
        _cost = cost;
        _queues = queues;
    }

    /// <summary>Measures the local run named by <paramref name="folder"/>, if it exists.</summary>
    /// <param name="notice">Given one line when the queues can be read only less often.</param>
    public static async Task<BurstMeasurement> LocalAsync(string folder, Action<string> notice)
    {
        if (!Directory.Exists(folder))
        {
            return new BurstMeasurement(null, null);
        }

        var cost = CostSampler.Start(LocalProcesses.Find(folder));
        var depths = await QueueDepthsOf(Path.Combine(folder, "queues"), notice);
        return new BurstMeasurement(
            cost, depths is null ? null : QueueSampler.Start(depths.Value.Depths, Queues, depths.Value.Interval));
    }

    /// <summary>Samples the queues of <paramref name="serviceBusNamespace"/>, if one is given.</summary>
    public static BurstMeasurement InAzure(ResourceIdentifier? serviceBusNamespace) =>
        new(null, serviceBusNamespace is null
            ? null
            : QueueSampler.Start(ServiceBusQueueDepths.Connect(serviceBusNamespace, Queues), Queues));

    /// <summary>
    /// Ends the window: the cost (none when no process was found) and the queue series from
    /// <paramref name="instant"/> on (none without a broker).
    /// </summary>
    /// <param name="instant">The burst's scheduled instant by this machine's clock.</param>
    public async Task<(BurstCost? Cost, QueueSeries? Queues)> StopAsync(DateTimeOffset instant)
    {
        var cost = _cost is null ? null : await _cost.StopAsync(ContainerAppsPrices.Load());
        var queues = _queues is null ? null : await _queues.StopAsync(instant);
        return (cost, queues);
    }

    private static async Task<(IQueueDepths Depths, TimeSpan Interval)?> QueueDepthsOf(
        string file, Action<string> notice)
    {
        if (!File.Exists(file))
        {
            return null;
        }

        var cells = (await File.ReadAllTextAsync(file))
            .Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return cells switch
        {
            ["redis", var endpoint] => (await RedisQueueDepths.ConnectAsync(endpoint, Queues), QueueSampler.Interval),
            ["rabbitmq", var vhost] => await RabbitMqSource.LocalAsync(vhost, Queues, notice),
            _ => null,
        };
    }

    public async ValueTask DisposeAsync()
    {
        if (_cost is not null)
        {
            await _cost.DisposeAsync();
        }

        if (_queues is not null)
        {
            await _queues.DisposeAsync();
        }
    }
}
