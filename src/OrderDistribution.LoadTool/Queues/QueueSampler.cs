using OrderDistribution.LoadTool.Costs;

namespace OrderDistribution.LoadTool.Queues;

/// <summary>
/// The orders waiting on each queue, once a second (or at the interval its source allows) from the burst's scheduling:
/// where the burst waits, beside the orders stored per second since the scheduled instant. A broker that does not
/// answer leaves its second out, counted with the first reason it gave.
/// </summary>
public sealed class QueueSampler : IAsyncDisposable
{
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    private readonly IQueueDepths _depths;
    private readonly PeriodicSampler<IReadOnlyDictionary<string, long>> _sampler;

    private QueueSampler(IQueueDepths depths, IReadOnlyList<string> queues, TimeSpan interval, TimeProvider time)
    {
        _depths = depths;
        Queues = queues;
        _sampler = new(depths.ReadAsync, interval, time);
    }

    public IReadOnlyList<string> Queues { get; }

    /// <param name="interval"><see cref="Interval"/> unless each reading costs the machine more.</param>
    public static QueueSampler Start(IQueueDepths depths, IReadOnlyList<string> queues, TimeSpan? interval = null,
        TimeProvider? time = null) =>
        new(depths, queues, interval ?? Interval, time ?? TimeProvider.System);

    /// <summary>Stops sampling and returns the samples taken from <paramref name="instant"/> on.</summary>
    /// <param name="instant">
    /// Second 0, by this machine's clock: when the orders were scheduled (locally) or became visible (in Azure), as the
    /// orders stored per second count from it.
    /// </param>
    public async Task<QueueSeries> StopAsync(DateTimeOffset instant)
    {
        var samples = await _sampler.StopAsync();
        return new QueueSeries(Queues, [
            .. samples.Taken.Where(s => s.At >= instant)
                .Select(s => new QueueSample((int)Math.Floor((s.At - instant).TotalSeconds), s.Value)),
        ])
        {
            Fault = samples.Fault,
        };
    }

    public async ValueTask DisposeAsync()
    {
        await _sampler.DisposeAsync();
        await _depths.DisposeAsync();
    }
}
