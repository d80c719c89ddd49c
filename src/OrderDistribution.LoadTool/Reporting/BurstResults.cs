using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>How a watched burst ends, for every command that runs one: the per-second chart, the result line, the row in the results log and the series beside it.</summary>
public static class BurstResults
{
    /// <summary>The chart and the result line.</summary>
    public static void Print(IAnsiConsole console, WatchReport report, string label)
    {
        if (StoredSeries.From(report) is { PerSecond.Count: > 0 } series)
        {
            console.Write(SeriesChart.Of(series, "orders stored"));
        }

        if (!report.StoredAtFromMetadata)
        {
            console.MarkupLine("[yellow]Some blobs carry no storedat metadata: their times are Last-Modified, whole seconds only.[/]");
        }

        ResultLine.Write(console, ResultLine.Of(report, label));
    }

    /// <summary>Appends the burst's row to the results log, ended now, and writes its per-second series beside it.</summary>
    /// <param name="began">When the burst took the store.</param>
    /// <returns>The series' file.</returns>
    public static async Task<string> RecordAsync(
        WatchReport report, string label, string resultsLog, BurstStart? start, BurstId burst, DateTimeOffset began, CancellationToken cancellationToken)
    {
        var row = ResultsRow.Of(label, report, start) with { Burst = burst, Began = began, Ended = DateTimeOffset.UtcNow };
        await ResultsLog.AppendAsync(resultsLog, row, cancellationToken);
        return await SeriesCsv.WriteBesideAsync(StoredSeries.From(report), resultsLog, row, cancellationToken);
    }
}
