using OrderDistribution.LoadTool.Costs;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>What the results say about one model (or storage alone): its runs, cold apart from warm.</summary>
/// <param name="Cold">Cycle times of the complete cold runs (the first burst after the trio started).</param>
/// <param name="Warm">Cycle times of the other complete runs, those without a start mark included.</param>
/// <param name="Unmarked">Complete runs without a start mark (counted as warm).</param>
/// <param name="WarmOrders">Orders of the warm runs, for the rate.</param>
/// <param name="ColdSeries">
/// Mean orders stored per second over the cold runs that kept their series; empty if none did.
/// </param>
/// <param name="WarmSeries">The same over the warm runs.</param>
/// <param name="RunsWithSeries">How many runs kept their per-second series.</param>
public sealed record ModelResults(
    string Label,
    int Runs,
    int Incomplete,
    IReadOnlyList<double> Cold,
    IReadOnlyList<double> Warm,
    int Unmarked,
    long WarmOrders,
    IReadOnlyList<double> ColdSeries, IReadOnlyList<double> WarmSeries, int RunsWithSeries)
{
    /// <summary>
    /// Each complete run's cycle time and cost, for the runs whose record carries a cost (cold and warm).
    /// </summary>
    public IReadOnlyList<(double Seconds, BurstCost Cost, bool Cold)> Costs { get; init; } = [];

    /// <summary>The orders waiting per queue in the model's last complete run that kept them (warm first).</summary>
    public QueueSeries? Queues { get; init; }

    /// <summary>
    /// The warm runs' mean trio CPU-seconds (apps, sidecars, broker), over the runs that saw the apps.
    /// </summary>
    public double? WarmTrioCpu => Mean(Costs.Where(c => !c.Cold).Select(c => c.Cost.TrioCpu));

    public double? WarmStoreCpu =>
        Mean(Costs.Where(c => !c.Cold).Select(c => c.Cost.CpuSecondsSeen(ComponentRole.Store)));

    public double? WarmPeakMiB => Mean(Costs.Where(c => !c.Cold).Select(c => c.Cost.PeakMiBSeen));

    public double? WarmPrice => Mean(Costs.Where(c => !c.Cold).Select(c => c.Cost.Price));

    private static double? Mean(IEnumerable<double?> values) =>
        values.OfType<double>().ToList() is { Count: > 0 } seen ? seen.Average() : null;

    public double? ColdMean => Cold.Count > 0 ? Cold.Average() : null;

    public double? WarmMean => Warm.Count > 0 ? Warm.Average() : null;

    public double? WarmMedian
    {
        get
        {
            var sorted = Warm.Order().ToList();
            var middle = sorted.Count / 2;
            return sorted.Count == 0 ? null
                : sorted.Count % 2 == 1 ? sorted[middle]
                : (sorted[middle - 1] + sorted[middle]) / 2;
        }
    }

    /// <summary>Warm orders in all over warm seconds in all: the rate the warm runs kept up together.</summary>
    public double? WarmOrdersPerSecond => Warm.Count > 0 ? WarmOrders / Warm.Sum() : null;
}
