using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Bursts;

/// <summary>How long to wait for a burst's last order, and how often to look.</summary>
public sealed record WatchSettings(TimeSpan Timeout, WatchPacing Pacing);
