using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// Orders stored per second since scheduling, by each order's own stored time: a stall or a tail shows at a glance.
/// </summary>
public sealed class StoredSeries
{
    public StoredSeries(IReadOnlyList<int> perSecond) => PerSecond = perSecond;

    /// <summary>
    /// Index s: orders stored in [s, s+1) seconds after scheduling (before scheduling counts as second 0).
    /// </summary>
    public IReadOnlyList<int> PerSecond { get; }

    public static StoredSeries From(WatchReport report) => From(report.ScheduledAt, report.StoredTimes);

    /// <param name="start">Second 0: when the orders were scheduled (or the uploads began).</param>
    /// <param name="storedTimes">When each order was stored.</param>
    public static StoredSeries From(DateTimeOffset start, IReadOnlyCollection<DateTimeOffset> storedTimes)
    {
        if (storedTimes.Count == 0)
        {
            return new StoredSeries([]);
        }

        var seconds = storedTimes.Select(t => Math.Max(0, (int)Math.Floor((t - start).TotalSeconds))).ToList();
        var series = new int[seconds.Max() + 1];
        foreach (var second in seconds)
        {
            series[second]++;
        }

        return new StoredSeries(series);
    }
}
