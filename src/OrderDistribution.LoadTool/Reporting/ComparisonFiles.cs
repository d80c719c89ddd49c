using OrderDistribution.LoadTool.Costs;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// <c>report</c>: the comparison of the models in a results log, as Markdown and a PNG chart beside it.
/// </summary>
public static class ComparisonFiles
{
    /// <param name="output">The Markdown to write; null: report.md beside the log.</param>
    /// <exception cref="InvalidDataException">The log holds no row to compare.</exception>
    public static async Task WriteAsync(IAnsiConsole console, string logPath, string? output, CancellationToken ct)
    {
        var log = Path.GetFullPath(logPath);
        var folder = Path.GetDirectoryName(log)!;
        var markdown = Path.GetFullPath(output ?? Path.Combine(folder, "report.md"));
        var rows = await ResultsLog.ReadAsync(log, ct);
        if (rows.Count == 0)
        {
            throw new InvalidDataException($"{log} holds no results rows");
        }

        var series = await SeriesBesideAsync(folder, rows, ct);
        var report = ComparisonReport.From(rows, series, await QueuesBesideAsync(folder, rows, ct));
        if (report.Rows == 0)
        {
            throw new InvalidDataException(
                $"Every row of {log} is of a burst that overlapped another's: nothing to compare");
        }

        var chart = Path.ChangeExtension(markdown, ".png");
        var markdownFolder = Path.GetDirectoryName(markdown)!;
        Directory.CreateDirectory(markdownFolder);
        ComparisonChart.SavePng(report, chart);
        var text = report.Markdown(Path.GetRelativePath(markdownFolder, log), Path.GetFileName(chart));
        await File.WriteAllTextAsync(markdown, text, ct);
        var leftOut = report.LeftOut > 0 ? $" ({report.LeftOut} left out: their bursts overlapped another's)" : "";
        console.MarkupLineInterpolated(
            $"{report.Rows} runs of {report.Models.Count} models compared{leftOut}: {markdown}, {chart}");
    }

    /// <summary>The orders waiting per queue each local run wrote beside its series (<c>.queues.csv</c>).</summary>
    private static async Task<Dictionary<ResultsRow, QueueSeries>> QueuesBesideAsync(
        string folder, IReadOnlyList<ResultsRow> rows, CancellationToken ct)
    {
        var queues = new Dictionary<ResultsRow, QueueSeries>();
        foreach (var row in rows)
        {
            if (row.CsvFileName() is { } name
                && Path.ChangeExtension(Path.Combine(folder, name), QueueSeries.Suffix) is var path
                && File.Exists(path))
            {
                queues[row] = QueueSeries.Parse(await File.ReadAllTextAsync(path, ct));
            }
        }

        return queues;
    }

    /// <summary>The per-second series each run wrote beside the log, for the runs whose file is still there.</summary>
    private static async Task<Dictionary<ResultsRow, StoredSeries>> SeriesBesideAsync(
        string folder, IReadOnlyList<ResultsRow> rows, CancellationToken ct)
    {
        var series = new Dictionary<ResultsRow, StoredSeries>();
        foreach (var row in rows)
        {
            if (row.CsvFileName() is { } name && Path.Combine(folder, name) is var path && File.Exists(path)
                && !series.ContainsKey(row))
            {
                series[row] = await SeriesCsv.ReadAsync(path, ct);
            }
        }

        return series;
    }
}
