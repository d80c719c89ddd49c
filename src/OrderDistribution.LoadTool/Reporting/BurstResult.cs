using System.Globalization;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The outcome of one burst, or of one storage-alone measurement: the one record the tool keeps (one JSON line each,
/// <see cref="ResultsFile"/>). The Markdown log, the CSVs, <c>report</c> and the Azure burst history are views of it.
/// </summary>
/// <param name="Label">
/// The model label (<c>pubsub-bulk</c>, <c>pubsub-single</c>, <c>bindings</c>, or a variant) or <c>storage-alone</c>.
/// </param>
/// <param name="Burst">
/// The burst measured (storage alone too names its blobs as a burst's); none in a hand-made record.
/// </param>
/// <param name="Start">Cold or warm; none when the run was not told.</param>
/// <param name="Missing">Orders not stored at the timeout (or uploads that failed).</param>
/// <param name="CycleSeconds">Until the last order was stored; none when nothing was stored.</param>
/// <param name="ScheduledAt">When the orders were scheduled (or the uploads began), UTC.</param>
/// <param name="Began">When the burst took the store (before it cleared it); none in a hand-made record.</param>
/// <param name="Ended">When its watch (or the uploads) ended.</param>
/// <param name="StoredPerSecond">
/// Index s: orders stored in [s, s+1) seconds after scheduling; empty when not kept.
/// </param>
public sealed record BurstResult(
    string Label, long? Burst, BurstStart? Start, int Count, int Missing, double? CycleSeconds,
    DateTimeOffset ScheduledAt, DateTimeOffset? Began, DateTimeOffset? Ended, IReadOnlyList<int> StoredPerSecond)
{
    /// <summary>What the processes of the local run spent, per component; none where they could not be seen.</summary>
    public BurstCost? Cost { get; init; }

    /// <summary>The orders waiting per queue and second; none without a broker to ask.</summary>
    public QueueSeries? Queues { get; init; }

    /// <summary>What scripts/azure-burst.sh read from Azure about the burst; none elsewhere.</summary>
    public AzureFacts? Azure { get; init; }

    public bool Complete => Missing == 0 && CycleSeconds is > 0;

    /// <summary>
    /// The orders stored over the cycle time: an incomplete burst is credited with what it stored, not its count.
    /// </summary>
    public double? OrdersPerSecond =>
        CycleSeconds is > 0 and var seconds && Count > Missing ? (Count - Missing) / seconds : null;

    /// <param name="began">When the burst took the store.</param>
    /// <param name="ended">When its watch ended.</param>
    public static BurstResult Of(string label, WatchReport report, BurstStart? start, long burst,
        DateTimeOffset began, DateTimeOffset ended) =>
        new(label, burst, start, report.Expected, report.Missing.Count, report.CycleTime?.TotalSeconds,
            report.ScheduledAt, began, ended, StoredSeries.From(report).PerSecond);

    /// <summary>
    /// The name of this run's per-second CSV: the scheduled second, the burst (so that two runs in one second write
    /// two files) and the label, marked when the burst was incomplete.
    /// </summary>
    public string CsvFileName() => string.Create(CultureInfo.InvariantCulture,
        $"{ScheduledAt.UtcDateTime:yyyyMMdd-HHmmss}{(Burst is { } burst ? $"-{burst}" : "")}-{Label}" +
        $"{(Complete ? "" : "-incomplete")}.csv");

    /// <summary>
    /// Whether this burst and <paramref name="other"/> held the store at the same time (both must say when).
    /// </summary>
    public bool Overlaps(BurstResult other) => Began < other.Ended && other.Began < Ended;

    /// <summary>The results whose bursts overlapped another's in time: none of them measured the store alone.</summary>
    /// <returns>Their places in <paramref name="results"/>.</returns>
    public static IReadOnlySet<int> Overlapped(IReadOnlyList<BurstResult> results)
    {
        var overlapped = new HashSet<int>();
        for (var i = 0; i < results.Count; i++)
        {
            for (var j = i + 1; j < results.Count; j++)
            {
                if (results[i].Overlaps(results[j]))
                {
                    overlapped.Add(i);
                    overlapped.Add(j);
                }
            }
        }

        return overlapped;
    }
}
