using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// How a watched burst ends, for every command that runs one: the per-second chart, the result line, the row in the
/// results log and the series beside it.
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
    /// Appends the burst's row to the results log, ended now, and writes its per-second series beside it.
    /// </summary>
    /// <param name="began">When the burst took the store.</param>
    /// <returns>The series' file.</returns>
    /// <param name="cost">
    /// The burst's cost per component, kept in the row and beside the series (<c>.cost.csv</c>).
    /// </param>
    /// <param name="queues">
    /// The orders waiting per queue and second, kept beside the series (<c>.queues.csv</c>).
    /// </param>
    public static async Task<string> RecordAsync(
        WatchReport report, string label, string resultsLog, BurstStart? start, BurstId burst, DateTimeOffset began,
        CancellationToken cancellationToken, BurstCost? cost = null, QueueSeries? queues = null)
    {
        var row = ResultsRow.Of(label, report, start) with
        {
            Burst = burst,
            Began = began,
            Ended = DateTimeOffset.UtcNow,
            Cost = cost is null ? null : RowCost.Of(cost),
        };
        await ResultsLog.AppendAsync(resultsLog, row, cancellationToken);
        var series = await SeriesCsv.WriteBesideAsync(StoredSeries.From(report), resultsLog, row, cancellationToken);
        if (cost is not null)
        {
            await File.WriteAllTextAsync(Path.ChangeExtension(series, ".cost.csv"), cost.Csv(), cancellationToken);
        }

        if (queues is not null)
        {
            var path = Path.ChangeExtension(series, QueueSeries.Suffix);
            await File.WriteAllTextAsync(path, queues.Csv(), cancellationToken);
        }

        return series;
    }
}
