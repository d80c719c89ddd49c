using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// How a watched burst ends, for every command that runs one: the per-second chart, the result line, the record in
/// the results file and the CSVs beside it.
/// </summary>
public static class BurstResults
{
    /// <summary>The chart and the result line.</summary>
    /// <param name="cost">
    /// What the local run's processes spent, when they could be seen: one line after the result line.
    /// </param>
    public static void Print(IAnsiConsole console, WatchReport report, string label, BurstCost? cost = null)
    {
        if (StoredSeries.From(report) is { PerSecond.Count: > 0 } series)
        {
            console.Write(SeriesChart.Of(series, "orders stored"));
        }

        if (!report.StoredAtFromMetadata)
        {
            console.MarkupLine(
                "[yellow]Some blobs carry no storedat metadata: their times are Last-Modified, whole seconds only.[/]");
        }

        ResultLine.Write(console, ResultLine.Of(report, label));
        if (cost is not null)
        {
            ResultLine.Write(console, $"{label} {cost.Line()}");
        }
    }

    /// <summary>
    /// Keeps the burst's result, ended now, in the results file, and writes its CSVs beside it.
    /// </summary>
    /// <param name="began">When the burst took the store.</param>
    /// <param name="cost">The burst's cost per component.</param>
    /// <param name="queues">The orders waiting per queue and second.</param>
    /// <returns>The per-second series' CSV.</returns>
    public static async Task<string> RecordAsync(
        WatchReport report, string label, string resultsFile, BurstStart? start, BurstId burst, DateTimeOffset began,
        CancellationToken cancellationToken, BurstCost? cost = null, QueueSeries? queues = null)
    {
        var result = BurstResult.Of(label, report, start, burst.Value, began, DateTimeOffset.UtcNow) with
        {
            Cost = cost,
            Queues = queues,
        };
        await ResultsFile.AppendAsync(resultsFile, result, cancellationToken);
        return await SeriesCsv.WriteBesideAsync(result, resultsFile, cancellationToken);
    }
}
