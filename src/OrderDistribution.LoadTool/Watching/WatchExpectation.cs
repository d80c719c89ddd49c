using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;

namespace OrderDistribution.LoadTool.Watching;

/// <summary>
/// The valid orders a watch waits for, each with the outbox its delivery sends it to, the poison it never waits for,
/// and the burst they are all of: a blob of another burst means that burst shared the store.
/// </summary>
public sealed class WatchExpectation
{
    private WatchExpectation(IReadOnlyDictionary<long, string> outboxOf, IReadOnlySet<long> poison, BurstId burst)
    {
        OutboxOf = outboxOf;
        Poison = poison;
        Burst = burst;
    }

    public BurstId Burst { get; }

    /// <summary>Valid order id → the outbox it belongs in.</summary>
    public IReadOnlyDictionary<long, string> OutboxOf { get; }

    public IReadOnlySet<long> Poison { get; }

    public static string OutboxFor(Delivery delivery) => OrderTopology.OutboxOf(OrderTopology.InstanceOf(delivery));

    public static WatchExpectation For(OrderSet set) => For(OrderIndex.Of(set));

    public static WatchExpectation For(OrderIndex index) => new(
        index.DeliveryOf.ToDictionary(o => o.Key, o => OutboxFor(o.Value)),
        index.Poison.Select(p => p.Id).ToHashSet(),
        index.Burst);
}
