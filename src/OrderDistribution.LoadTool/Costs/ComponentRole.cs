namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// What a component is to the bill: apps and sidecars run in Container Apps; the broker and the store do not.
/// </summary>
public enum ComponentRole
{
    App,
    Sidecar,
    Broker,
    Store,
}
