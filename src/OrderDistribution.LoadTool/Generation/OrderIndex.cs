using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// An orders file in the form the watch and the schedule keep while they work: each valid order's delivery by id (a
/// few bytes an order, not the order), and the poison whole (a small share of the burst).
/// </summary>
public sealed class OrderIndex(
    IReadOnlyDictionary<long, Delivery> deliveryOf, IReadOnlyList<PoisonOrder> poison, BurstId burst)
{
    /// <summary>The burst every id of the file is in.</summary>
    public BurstId Burst { get; } = burst;

    public IReadOnlyDictionary<long, Delivery> DeliveryOf { get; } = deliveryOf;

    public IReadOnlyList<PoisonOrder> Poison { get; } = poison;

    public int Count => DeliveryOf.Count + Poison.Count;

    public static OrderIndex Of(OrderSet set) =>
        new(set.Orders.ToDictionary(o => o.OrderId, o => o.Delivery), set.Poison, set.Burst);
}
