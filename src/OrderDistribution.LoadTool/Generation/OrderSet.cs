using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// The orders of one burst: the valid ones, and the poison mixed in on purpose (<c>generate --invalid-rate</c>).
/// </summary>
public sealed record OrderSet(IReadOnlyList<Order> Orders, IReadOnlyList<PoisonOrder> Poison)
{
    public int Count => Orders.Count + Poison.Count;

    public static OrderSet ValidOnly(IReadOnlyList<Order> orders) => new(orders, []);
}
