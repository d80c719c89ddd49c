using OrderDistribution.Contracts;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// Bursts of the same orders, one id range per round.
/// </summary>
internal static class BurstRounds
{
    /// <summary>
    /// The same orders with ids of their own, one range per round (ids no generated burst uses): a warm-up that goes
    /// the way the burst's orders will go (stored, not dropped as invalid), or a next burst that writes new blobs.
    /// </summary>
    public static List<Order> WithIdsOfTheirOwn(IEnumerable<Order> orders, int round) =>
        [.. orders.Select(o => o with { OrderId = o.OrderId + round * 1_000_000_000_000 })];
}
