using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// The orders of one burst: the valid ones, and the poison mixed in on purpose (<c>generate --invalid-rate</c>); every
/// id is of <paramref name="Burst"/>.
/// </summary>
public sealed record OrderSet(IReadOnlyList<Order> Orders, IReadOnlyList<PoisonOrder> Poison, BurstId Burst)
{
    public int Count => Orders.Count + Poison.Count;

    /// <summary>Valid orders alone, of the burst their ids are in (<see cref="BurstId.Legacy"/> for none).</summary>
    public static OrderSet ValidOnly(IReadOnlyList<Order> orders) =>
        new(orders, [], orders.Count > 0 ? BurstId.Of(orders[0].OrderId) : BurstId.Legacy);
}
