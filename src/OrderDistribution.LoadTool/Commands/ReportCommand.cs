using System.CommandLine;
using OrderDistribution.LoadTool.Reporting;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>report</c>: the comparison of the models in a results file, as Markdown and a PNG chart beside it.
/// </summary>
internal static class ReportCommand
{
    private static readonly Argument<FileInfo> Log = new("results")
    {
        Description = "The results file to compare (run, ceiling and scripts/compare-local.sh write it).",
        DefaultValueFactory = _ => new FileInfo(ResultsFile.DefaultPath),
    };

    private static readonly Option<FileInfo?> Output = new("--output")
    {
        Description = "The report to write (Markdown); the chart goes beside it with the same name and .png. " +
                      "Default: report.md beside the results file.",
    };

    public static Command Create(IAnsiConsole console) =>
        new Command("report", "Compare the models in a results file: a table per model and a chart (report.md and " +
                              "report.png).")
        {
            Log, Output,
        }.Writes(Output).Runs(async (result, ct) =>
        {
            await ComparisonFiles.WriteAsync(
                console, result.GetValue(Log)!.ToString(), result.GetValue(Output)?.ToString(), ct);
            return ExitCodes.Done;
        });
}
