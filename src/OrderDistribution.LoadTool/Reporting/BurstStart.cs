namespace OrderDistribution.LoadTool.Reporting;

/// <summary>Whether a burst was the first since the trio started (cold) or a later one (warm).</summary>
public enum BurstStart
{
    Cold,
    Warm,
}
