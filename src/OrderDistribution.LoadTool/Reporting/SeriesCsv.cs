using System.Globalization;
using System.Text;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// A result's series as CSV beside the results file, for a spreadsheet: the orders stored per second
/// (<c>second,stored,cumulative</c>), and where kept the cost per component (<c>.cost.csv</c>) and the orders waiting
/// per queue and second (<c>.queues.csv</c>).
/// </summary>
public static class SeriesCsv
{
    public const string CostSuffix = ".cost.csv";

    public const string QueuesSuffix = ".queues.csv";

    public static string Of(IReadOnlyList<int> perSecond)
    {
        var csv = new StringBuilder("second,stored,cumulative\n");
        var cumulative = 0;
        for (var second = 0; second < perSecond.Count; second++)
        {
            cumulative += perSecond[second];
            csv.Append(CultureInfo.InvariantCulture, $"{second},{perSecond[second]},{cumulative}\n");
        }

        return csv.ToString();
    }

    /// <summary>
    /// Writes <paramref name="result"/>'s CSVs beside the results file, as <see cref="BurstResult.CsvFileName()"/>
    /// names them.
    /// </summary>
    /// <returns>The per-second series' file.</returns>
    public static async Task<string> WriteBesideAsync(
        BurstResult result, string resultsFile, CancellationToken cancellationToken)
    {
        var folder = Path.GetDirectoryName(Path.GetFullPath(resultsFile))!;
        Directory.CreateDirectory(folder);
        var path = Path.Combine(folder, result.CsvFileName());
        await File.WriteAllTextAsync(path, Of(result.StoredPerSecond), cancellationToken);
        if (result.Cost is { } cost)
        {
            await File.WriteAllTextAsync(Path.ChangeExtension(path, CostSuffix), cost.Csv(), cancellationToken);
        }

        if (result.Queues is { } queues)
        {
            await File.WriteAllTextAsync(Path.ChangeExtension(path, QueuesSuffix), queues.Csv(), cancellationToken);
        }

        return path;
    }
}
