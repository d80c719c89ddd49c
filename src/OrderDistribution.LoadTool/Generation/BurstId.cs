using System.Globalization;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// The id of one burst, carried in its orders' ids: burst <c>B</c> numbers its orders from <c>B × 1,000,000</c>, so a
/// blob's name (<c>{OrderId}.json</c>) tells its burst and the orders of one burst share a name prefix (<see
/// cref="Prefix"/>). The apps store orders as they always did; the id is the load tool's alone.
/// </summary>
public readonly record struct BurstId(long Value)
{
    /// <summary>Ids per burst: room for the largest burst the tool makes.</summary>
    public const long OrdersPerBurst = 1_000_000;

    /// <summary>
    /// Burst 1: ids from 1,000,000, as every burst was numbered before bursts had ids (and the API's default).
    /// </summary>
    public static readonly BurstId Legacy = new(1);

    /// <summary>A burst's id, six digits, not starting with 1: its names never start with burst 1's.</summary>
    public static BurstId New() => new(Random.Shared.NextInt64(200_000, 1_000_000));

    /// <summary>The burst an order id belongs to (0 for ids below 1,000,000, as a hand-made file may hold).</summary>
    public static BurstId Of(long orderId) => new(orderId / OrdersPerBurst);

    public long FirstOrderId => Value * OrdersPerBurst;

    /// <summary>
    /// Every order of this burst is named with this prefix, and no order of another burst that the tool makes.
    /// </summary>
    public string Prefix => Value.ToString(CultureInfo.InvariantCulture);

    public bool Holds(long orderId) => Of(orderId) == this;

    public override string ToString() => Prefix;
}
