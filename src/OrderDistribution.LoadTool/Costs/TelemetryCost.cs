using System.Globalization;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// What a burst's telemetry cost in Log Analytics: MB billed and their price. The burst script keeps it in a file
/// between <c>burst-record telemetry-cost</c> and <c>append</c>, rounded as the line prints it.
/// </summary>
public sealed record TelemetryCost(double BilledMb, double Cost)
{
    /// <summary>MB billed (2 decimals) and cost (6 decimals), as the history keeps them.</summary>
    public string[] Cells() =>
    [
        BilledMb.ToString("F2", CultureInfo.InvariantCulture), Cost.ToString("F6", CultureInfo.InvariantCulture),
    ];

    public Task WriteAsync(string path, CancellationToken cancellationToken) =>
        File.WriteAllTextAsync(path, string.Join('\t', Cells()) + "\n", cancellationToken);

    /// <summary>The cost in the file at <paramref name="path"/>; null when there is no such file.</summary>
    /// <exception cref="InvalidDataException">The file holds something else.</exception>
    public static async Task<TelemetryCost?> ReadAsync(string path, CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        var text = (await File.ReadAllTextAsync(path, cancellationToken)).Trim();
        return text.Split('\t') is [var mb, var cost]
               && double.TryParse(mb, NumberStyles.Float, CultureInfo.InvariantCulture, out var billedMb)
               && double.TryParse(cost, NumberStyles.Float, CultureInfo.InvariantCulture, out var usd)
            ? new TelemetryCost(billedMb, usd)
            : throw new InvalidDataException(
                $"{path} holds '{text}', not the MB billed and their cost separated by a tab");
    }
}
