using System.Globalization;

namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>
/// A service's clock minus this machine's (<see cref="Offset"/>), known to within <see cref="Uncertainty"/>.
/// </summary>
public readonly record struct ClockSkew(TimeSpan Offset, TimeSpan Uncertainty)
{
    /// <summary>What the service's clock reads when this machine's reads <paramref name="local"/>.</summary>
    public DateTimeOffset ToServiceTime(DateTimeOffset local) => local + Offset;

    /// <summary>One line for the console: which way, how much, how sure.</summary>
    public string Describe(string service)
    {
        var direction = Offset >= TimeSpan.Zero ? "ahead of" : "behind";
        var how = string.Create(CultureInfo.InvariantCulture,
            $"{Math.Abs(Offset.TotalSeconds):0.000} s {direction} this machine's " +
            $"(±{Uncertainty.TotalSeconds:0.000} s");
        return $"Clock: {service}'s clock is {how}, from its Date header); the burst is scheduled, and measured, " +
               $"in {service}'s time.";
    }
}
