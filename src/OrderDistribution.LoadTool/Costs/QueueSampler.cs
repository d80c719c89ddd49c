namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// The orders waiting on each queue, once a second (or at the interval its source allows) from the burst's scheduling:
/// where the burst waits, beside the orders stored per second since the scheduled instant. A broker that does not
/// answer leaves its second out, counted
/// with the first reason it gave; sampling never ends a burst.
/// </summary>
public sealed class QueueSampler : IAsyncDisposable
{
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    private readonly IQueueDepths _depths;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<(DateTimeOffset At, IReadOnlyDictionary<string, long> Waiting)> _samples = [];
    private readonly Task _sampling;
    private int _missed;
    private string? _firstFault;

    private QueueSampler(IQueueDepths depths, IReadOnlyList<string> queues, TimeSpan interval)
    {
        _depths = depths;
        Queues = queues;
        _sampling = SampleAsync(interval);
    }

    public IReadOnlyList<string> Queues { get; }

    /// <param name="interval"><see cref="Interval"/> unless each reading costs the machine more.</param>
    public static QueueSampler Start(IQueueDepths depths, IReadOnlyList<string> queues, TimeSpan? interval = null) =>
        new(depths, queues, interval ?? Interval);

    /// <summary>Stops sampling and returns the samples taken from <paramref name="instant"/> on.</summary>
    /// <param name="instant">
    /// Second 0, by this machine's clock: when the orders were scheduled (locally) or became visible (in Azure), as the
    /// orders stored per second count from it.
    /// </param>
    public async Task<QueueSeries> StopAsync(DateTimeOffset instant)
    {
        await _stop.CancelAsync();
        await _sampling;
        lock (_samples)
        {
            var samples = _samples.Where(s => s.At >= instant)
                .Select(s => new QueueSample((int)Math.Floor((s.At - instant).TotalSeconds), s.Waiting));
            return new QueueSeries(Queues, [.. samples])
            {
                Fault = _firstFault is null
                    ? null
                    : $"{_missed} of {_samples.Count + _missed} readings failed, the first: {_firstFault}",
            };
        }
    }

    private async Task SampleAsync(TimeSpan interval)
    {
        using var timer = new PeriodicTimer(interval);
        try
        {
            do
            {
                var at = DateTimeOffset.UtcNow;
                try
                {
                    var depths = await _depths.ReadAsync(_stop.Token);
                    lock (_samples)
                    {
                        _samples.Add((at, depths));
                    }
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    // The broker did not answer this second: left out.
                    lock (_samples)
                    {
                        _missed++;
                        _firstFault ??= FailureText.Reason(e);
                    }
                }
            }
            while (await timer.WaitForNextTickAsync(_stop.Token));
        }
        catch (OperationCanceledException)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _sampling;
        _stop.Dispose();
        await _depths.DisposeAsync();
    }
}
