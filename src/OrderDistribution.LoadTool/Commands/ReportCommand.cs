using System.CommandLine;
using OrderDistribution.LoadTool.Reporting;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>report</c>: the comparison of the models in a results log, as Markdown and a PNG chart beside it.</summary>
internal static class ReportCommand
{
    private static readonly Argument<string> Log = new("log")
    {
        Description = "The results log to compare (run, ceiling and scripts/compare-local.sh write it).",
        DefaultValueFactory = _ => Path.Combine("results", "LOG.md"),
    };

    private static readonly Option<string> Output = new Option<string>("--output")
    {
        Description = "The report to write (Markdown); the chart goes beside it with the same name and .png. Default: " +
                      "report.md beside the log.",
    }.Text("a file's path");

    public static Command Create(IAnsiConsole console) =>
        new Command("report", "Compare the models in a results log: a table per model and a chart (report.md and report.png).")
        {
            Log, Output,
        }.Writes(Output).Runs((result, ct) => RunAsync(console, result, ct));

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var log = Path.GetFullPath(result.GetValue(Log)!);
        var markdown = Path.GetFullPath(result.GetValue(Output) ?? Path.Combine(Path.GetDirectoryName(log)!, "report.md"));
        var rows = await ResultsLog.ReadAsync(log, ct);
        if (rows.Count == 0)
        {
            throw new InvalidDataException($"{log} holds no results rows");
        }

        var series = await SeriesBesideAsync(log, rows, ct);
        var report = ComparisonReport.From(rows, series, await QueuesBesideAsync(log, rows, ct));
        if (report.Rows == 0)
        {
            throw new InvalidDataException($"Every row of {log} is of a burst that overlapped another's: nothing to compare");
        }
        var chart = Path.ChangeExtension(markdown, ".png");
        Directory.CreateDirectory(Path.GetDirectoryName(markdown)!);
        ComparisonChart.SavePng(report, chart);
        await File.WriteAllTextAsync(markdown, report.Markdown(Path.GetRelativePath(Path.GetDirectoryName(markdown)!, log), Path.GetFileName(chart)), ct);
        var leftOut = report.LeftOut > 0 ? $" ({report.LeftOut} left out: their bursts overlapped another's)" : "";
        console.MarkupLineInterpolated($"{report.Rows} runs of {report.Models.Count} models compared{leftOut}: {markdown}, {chart}");
        return ExitCodes.Done;
    }

    /// <summary>The orders waiting per queue each local run wrote beside its series (<c>.queues.csv</c>).</summary>
    private static async Task<Dictionary<ResultsRow, Costs.QueueSeries>> QueuesBesideAsync(string log, IReadOnlyList<ResultsRow> rows, CancellationToken ct)
    {
        var queues = new Dictionary<ResultsRow, Costs.QueueSeries>();
        foreach (var row in rows)
        {
            if (row.CsvFileName() is { } name
                && Path.ChangeExtension(Path.Combine(Path.GetDirectoryName(log)!, name), Costs.QueueSeries.Suffix) is var path
                && File.Exists(path))
            {
                queues[row] = Costs.QueueSeries.Parse(await File.ReadAllTextAsync(path, ct));
            }
        }

        return queues;
    }

    /// <summary>The per-second series each run wrote beside the log, for the runs whose file is still there.</summary>
    private static async Task<Dictionary<ResultsRow, StoredSeries>> SeriesBesideAsync(string log, IReadOnlyList<ResultsRow> rows, CancellationToken ct)
    {
        var series = new Dictionary<ResultsRow, StoredSeries>();
        foreach (var row in rows)
        {
            if (row.CsvFileName() is { } name && Path.Combine(Path.GetDirectoryName(log)!, name) is var path && File.Exists(path) && !series.ContainsKey(row))
            {
                series[row] = await SeriesCsv.ReadAsync(path, ct);
            }
        }

        return series;
    }
}
