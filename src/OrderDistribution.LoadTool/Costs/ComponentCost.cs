namespace OrderDistribution.LoadTool.Costs;

/// <summary>What one component spent over a burst's window: CPU time and the highest resident memory sampled.</summary>
public sealed record ComponentCost(string Name, ComponentRole Role, double CpuSeconds, double PeakMiB)
{
    public bool InContainerApps => Role is ComponentRole.App or ComponentRole.Sidecar;
}
