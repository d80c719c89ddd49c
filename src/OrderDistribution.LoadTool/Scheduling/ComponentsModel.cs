namespace OrderDistribution.LoadTool.Scheduling;

public enum ComponentsModel
{
    Pubsub,
    Bindings,
}
