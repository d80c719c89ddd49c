using System.Globalization;

namespace OrderDistribution.TestSupport.Components;

/// <summary>
/// pubsub.redis's <c>redeliverInterval</c> as the runtimes read it. Dapr 1.14 to 1.18 read only a bare number of
/// milliseconds: any other value, a duration such as <c>2s</c> included, is dropped without a word and the component's
/// default, 15 s, runs instead. 1.19 reads a duration too (docs/runtimes.md, "pubsub.redis's redeliverInterval").
/// </summary>
public static class RedisRedeliverInterval
{
    /// <summary>The component's own, on every runtime.</summary>
    public static readonly TimeSpan Default = TimeSpan.FromSeconds(15);

    /// <returns>What every runtime from 1.14 to the newest runs with.</returns>
    /// <exception cref="FormatException">The runtimes read the value differently.</exception>
    public static TimeSpan OnEveryRuntime(string? value)
    {
        if (string.IsNullOrEmpty(value))
        {
            return Default;
        }

        if (ulong.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var milliseconds))
        {
            return TimeSpan.FromMilliseconds(milliseconds);
        }

        throw new FormatException(
            $"redeliverInterval '{value}' runs as {GoDuration.Parse(value).TotalMilliseconds:0} ms on Dapr 1.19, but " +
            $"1.14 to 1.18 ignore it and run with {Default.TotalSeconds:0} s: give it in milliseconds");
    }
}
