namespace OrderDistribution.LoadTool.BurstRecords;

/// <summary>
/// The history of an environment's Azure bursts (results/azure-bursts-ENV.tsv), one tab-separated row per burst:
/// cycle times compare only among bursts of one model that started alike (label and replicas at the instant) and
/// whose apps ran alike (tiered compilation).
/// </summary>
public static class BurstHistory
{
    public const string Header =
        "scheduled_at\tmodel\tstart\treplicas_at_instant\treplicas_at_end\tcpu_seconds\tpeak_mib\tcost_usd" +
        "\ttiered_compilation\ttelemetry_mb\ttelemetry_usd";

    private const int TieredCompilationColumn = 8;

    /// <summary>Appends <paramref name="row"/> to the history at <paramref name="path"/>, new or not.</summary>
    public static async Task AppendAsync(string path, BurstHistoryRow row, CancellationToken cancellationToken)
    {
        await StartAsync(path, cancellationToken);
        await File.AppendAllTextAsync(path, row.Format() + "\n", cancellationToken);
    }

    /// <summary>
    /// How many earlier bursts in the history at <paramref name="path"/> (started with its header when new) compare
    /// with one of <paramref name="model"/> and <paramref name="start"/> that ran <paramref name="replicasAtInstant"/>
    /// ("app=count ...") with <paramref name="tieredCompilation"/>; null when those replicas are not known (not read,
    /// or an app's count is "?"). A burst recorded before the history kept tiered compilation compares with none.
    /// </summary>
    public static async Task<int?> CountComparableAsync(string path, string model, string start,
        string replicasAtInstant, string tieredCompilation, CancellationToken cancellationToken)
    {
        await StartAsync(path, cancellationToken);
        if (replicasAtInstant.Length == 0 || replicasAtInstant.Contains("=?", StringComparison.Ordinal))
        {
            return null;
        }

        return (await File.ReadAllLinesAsync(path, cancellationToken)).Skip(1)
            .Select(line => line.Split('\t'))
            .Count(cells => cells.Length > TieredCompilationColumn && cells[1] == model && cells[2] == start
                && cells[3] == replicasAtInstant && cells[TieredCompilationColumn] == tieredCompilation);
    }

    private static async Task StartAsync(string path, CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
            await File.WriteAllTextAsync(path, Header + "\n", cancellationToken);
            return;
        }

        // A history begun before a column was added gets the whole header; its rows keep the cells they had.
        var lines = await File.ReadAllLinesAsync(path, cancellationToken);
        if (lines.Length > 0 && lines[0] != Header && Header.StartsWith(lines[0] + "\t", StringComparison.Ordinal))
        {
            lines[0] = Header;
            await File.WriteAllLinesAsync(path, lines, cancellationToken);
        }
    }
}
