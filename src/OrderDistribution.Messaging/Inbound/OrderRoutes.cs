namespace OrderDistribution.Messaging.Inbound;

/// <summary>The routes the sidecar delivers to: <c>/{topic}-bulk</c>, <c>/{topic}-single</c> and <c>/{input binding}</c>.</summary>
public sealed record OrderRoutes(string Topic, string InputBinding)
{
    public string Bulk => $"/{Topic}-bulk";

    public string Single => $"/{Topic}-single";

    public string Binding => $"/{InputBinding}";
}
