namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// The routes the sidecar delivers to: <c>/{queue}-bulk</c>, <c>/{queue}-single</c> and <c>/{input binding}</c>.
/// </summary>
public sealed record OrderRoutes(string Queue, string InputBinding)
{
    public string Bulk => $"/{Queue}-bulk";

    public string Single => $"/{Queue}-single";

    public string Binding => $"/{InputBinding}";
}
