using System.ComponentModel.DataAnnotations;

namespace OrderDistribution.ServiceDefaults;

/// <summary>How often the dependencies are checked. Section <c>Readiness</c>.</summary>
public sealed class ReadinessOptions
{
    public const string Section = "Readiness";

    [Range(typeof(TimeSpan), "00:00:00.050", "00:01:00")]
    public TimeSpan Interval { get; set; } = TimeSpan.FromSeconds(2);

    [Range(typeof(TimeSpan), "00:00:00.050", "00:01:00")]
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(2);
}
