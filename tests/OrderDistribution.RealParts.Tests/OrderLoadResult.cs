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

    /// <summary>
    /// Every valid order a blob exactly once, every poison order dropped, as the load tool's watch saw it.
    /// </summary>
    public void AssertExact(int valid, int poison)
    {
        Assert.True(ExitCode == 0, Output);
        Assert.Contains($" {valid}/{valid} orders stored", Output, StringComparison.Ordinal);
        Assert.Contains("0 missing, 0 duplicated", Output, StringComparison.Ordinal);
        if (poison > 0)
        {
            Assert.Contains($"{poison} poison dropped (expected)", Output, StringComparison.Ordinal);
            Assert.DoesNotContain("poison stored", Output, StringComparison.Ordinal);
        }
    }

    [GeneratedRegex(@"cycle time ([0-9]+(?:\.[0-9]+)?) s")]
    private static partial Regex CycleTime();
}
