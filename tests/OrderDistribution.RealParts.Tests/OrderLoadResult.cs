using System.Globalization;
using System.Text.RegularExpressions;

namespace OrderDistribution.RealParts.Tests;

/// <summary>What order-load exited with and printed.</summary>
public sealed partial record OrderLoadResult(int ExitCode, string Output)
{
    /// <summary>The cycle time of the watch's summary line, in seconds.</summary>
    public double CycleSeconds => CycleTime().Match(Output) is { Success: true } match
        ? double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture)
        : throw new InvalidOperationException($"order-load printed no cycle time: {Output}");

    [GeneratedRegex(@"cycle time ([0-9]+(?:\.[0-9]+)?) s")]
    private static partial Regex CycleTime();
}
