using OrderDistribution.Orders;

namespace OrderDistribution.Dapr;

/// <summary>An order as it arrived, under the id its outcome is reported with.</summary>
public sealed record InboundOrder(string EntryId, Order Order);

/// <summary>The way an order reached the app; the distributor forwards it the same way.</summary>
public enum InboundChannel
{
    BulkSubscription,
    Subscription,
    InputBinding,
}

/// <summary>What an app does with the orders the sidecar delivers.</summary>
public interface IOrderHandler
{
    /// <returns>The entry ids that failed for a reason worth retrying; every other order is done.</returns>
    Task<IReadOnlySet<string>> HandleAsync(
        IReadOnlyList<InboundOrder> orders, InboundChannel channel, CancellationToken cancellationToken);
}

/// <summary>The routes the sidecar delivers to: <c>/{topic}-bulk</c>, <c>/{topic}-single</c> and <c>/{input binding}</c>.</summary>
public sealed record OrderRoutes(string Topic, string InputBinding)
{
    public string Bulk => $"/{Topic}-bulk";

    public string Single => $"/{Topic}-single";

    public string Binding => $"/{InputBinding}";
}
