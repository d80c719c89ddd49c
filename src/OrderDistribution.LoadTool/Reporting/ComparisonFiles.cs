using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// <c>report</c>: the comparison of the models in a results file, as Markdown and a PNG chart beside it.
/// </summary>
public static class ComparisonFiles
{
    /// <param name="output">The Markdown to write; null: report.md beside the results file.</param>
    /// <exception cref="InvalidDataException">The file holds no result to compare.</exception>
    public static async Task WriteAsync(
        IAnsiConsole console, string resultsPath, string? output, CancellationToken ct)
    {
        var results = Path.GetFullPath(resultsPath);
        var markdown = Path.GetFullPath(output ?? Path.Combine(Path.GetDirectoryName(results)!, "report.md"));
        var records = await ResultsFile.ReadAsync(results, ct);
        if (records.Count == 0)
        {
            throw new InvalidDataException($"{results} holds no results");
        }

        var report = ComparisonReport.From(records);
        if (report.Rows == 0)
        {
            throw new InvalidDataException(
                $"Every result in {results} is of a burst that overlapped another's: nothing to compare");
        }

        var chart = Path.ChangeExtension(markdown, ".png");
        var markdownFolder = Path.GetDirectoryName(markdown)!;
        Directory.CreateDirectory(markdownFolder);
        ComparisonChart.SavePng(report, chart);
        var text = report.Markdown(Path.GetRelativePath(markdownFolder, results), Path.GetFileName(chart));
        await File.WriteAllTextAsync(markdown, text, ct);
        var leftOut = report.LeftOut > 0 ? $" ({report.LeftOut} left out: their bursts overlapped another's)" : "";
        console.MarkupLineInterpolated(
            $"{report.Rows} runs of {report.Models.Count} models compared{leftOut}: {markdown}, {chart}");
    }
}
