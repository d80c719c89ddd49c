using System.Globalization;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// What an app (or a whole burst) cost in Azure: CPU-seconds used, peak memory in MiB and the bill. The burst script
/// keeps each app's share in a tab-separated file, rounded as its line prints it, so that the burst's total adds
/// what the lines say.
/// </summary>
public sealed record CostShare(double CpuSeconds, long PeakMib, double Cost)
{
    /// <summary>The burst's total: CPU-seconds and cost added, the worst app's peak memory.</summary>
    public static CostShare Total(IEnumerable<CostShare> shares) =>
        shares.Aggregate(new CostShare(0, 0, 0), (total, share) => new CostShare(
            total.CpuSeconds + share.CpuSeconds, Math.Max(total.PeakMib, share.PeakMib), total.Cost + share.Cost));

    /// <summary>CPU-seconds (2 decimals), MiB and cost (6 decimals), as the history keeps them.</summary>
    public string[] Cells() =>
    [
        CpuSeconds.ToString("F2", CultureInfo.InvariantCulture), PeakMib.ToString(CultureInfo.InvariantCulture),
        Cost.ToString("F6", CultureInfo.InvariantCulture),
    ];

    /// <summary>Appends this share to the burst's file at <paramref name="path"/>, one line per app.</summary>
    public Task AppendAsync(string path, CancellationToken cancellationToken) =>
        File.AppendAllTextAsync(path, string.Join('\t', Cells()) + "\n", cancellationToken);

    /// <summary>The shares in the file at <paramref name="path"/>; null when there is no such file.</summary>
    /// <exception cref="InvalidDataException">A line is not three numbers.</exception>
    public static async Task<IReadOnlyList<CostShare>?> ReadAllAsync(string path, CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        return (await File.ReadAllLinesAsync(path, cancellationToken))
            .Where(line => line.Length > 0)
            .Select(line => Parse(line) ?? throw new InvalidDataException(
                $"{path} holds '{line}', not an app's CPU-seconds, peak MiB and cost separated by tabs"))
            .ToList();
    }

    private static CostShare? Parse(string line) =>
        line.Split('\t') is [var cpu, var mib, var cost]
        && double.TryParse(cpu, NumberStyles.Float, CultureInfo.InvariantCulture, out var cpuSeconds)
        && long.TryParse(mib, NumberStyles.None, CultureInfo.InvariantCulture, out var peakMib)
        && double.TryParse(cost, NumberStyles.Float, CultureInfo.InvariantCulture, out var usd)
            ? new CostShare(cpuSeconds, peakMib, usd)
            : null;
}
