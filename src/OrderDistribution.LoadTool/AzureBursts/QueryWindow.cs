using System.Globalization;

namespace OrderDistribution.LoadTool.AzureBursts;

/// <summary>
/// The span a burst's telemetry is queried over: this machine's start and end of the burst moved into storage's time
/// by the skew, widened by <see cref="Margin"/> each side for the containers' clocks, which are not measured
/// (docs/azure.md, "How the cycle time is measured").
/// </summary>
public readonly record struct QueryWindow(DateTimeOffset Start, DateTimeOffset End)
{
    public static readonly TimeSpan Margin = TimeSpan.FromSeconds(60);

    /// <exception cref="ArgumentOutOfRangeException">The window would fall off the calendar.</exception>
    public static QueryWindow Of(DateTimeOffset started, DateTimeOffset ended, TimeSpan skew) =>
        new(started + skew - Margin, ended + skew + Margin);

    /// <summary>"start end", as az and scripts/query-kql.sh take them.</summary>
    public string Format() => $"{Text(Start)} {Text(End)}";

    /// <summary>An instant as UTC text to the second with a Z (2026-11-24T10:00:00Z).</summary>
    public static string Text(DateTimeOffset at) =>
        at.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ssZ", CultureInfo.InvariantCulture);
}
