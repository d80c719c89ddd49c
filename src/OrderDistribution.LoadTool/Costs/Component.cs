namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// One part of a local run (an app, a sidecar, the broker, the store) and the processes it is made of.
/// </summary>
public sealed record Component(string Name, ComponentRole Role, IReadOnlyList<int> Pids)
{
    /// <summary>Whether Container Apps would bill it: the apps and their sidecars.</summary>
    public bool InContainerApps => Role is ComponentRole.App or ComponentRole.Sidecar;
}
