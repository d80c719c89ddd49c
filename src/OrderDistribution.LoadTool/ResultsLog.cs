using System.Globalization;

namespace OrderDistribution.LoadTool;

/// <summary>One Markdown table row per run, so that runs can be compared.</summary>
public static class ResultsLog
{
    private const string Header =
        "| timestamp | model | count | cycle time s | orders/s | missing |\n| --- | --- | ---: | ---: | ---: | ---: |\n";

    public static async Task AppendAsync(string path, string model, WatchReport report, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        var row = string.Create(CultureInfo.InvariantCulture,
            $"| {report.ScheduledAt:yyyy-MM-ddTHH:mm:ss} | {model} | {report.Expected} | {report.CycleTime?.TotalSeconds:0.0} | {report.OrdersPerSecond:0} | {report.Missing.Count} |\n");
        await File.AppendAllTextAsync(path, File.Exists(path) ? row : Header + row, cancellationToken);
    }
}
