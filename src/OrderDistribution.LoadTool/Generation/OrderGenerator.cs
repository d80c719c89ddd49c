using System.Globalization;
using System.Text.Json.Nodes;
using Bogus;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>Makes orders with realistic fake data, about half express and half standard.</summary>
public static class OrderGenerator
{
    /// <summary>
    /// The first id of <see cref="BurstId.Legacy"/>, the burst the methods number their orders in unless given one.
    /// </summary>
    public const long FirstOrderId = 1_000_000;

    public static List<Order> Generate(int count, int? seed = null) => Generate(count, seed, BurstId.Legacy);

    public static List<Order> Generate(int count, int? seed, BurstId burst) => [.. Orders(count, seed, burst)];

    /// <summary>
    /// <paramref name="count"/> entries in one id sequence, of which the share <paramref name="invalidRate"/> is
    /// poison, spread evenly through the burst and taking turns: unknown delivery, missing fields, not JSON.
    /// The valid orders are those <see cref="Generate(int, int?)"/> makes with the same seed, minus the poison's
    /// places.
    /// </summary>
    public static OrderSet Generate(int count, double invalidRate, int? seed = null) =>
        Generate(count, invalidRate, seed, BurstId.Legacy);

    /// <summary>
    /// The burst <see cref="Generate(int, double, int?)"/> makes, numbered as <paramref name="burst"/>.
    /// </summary>
    public static OrderSet Generate(int count, double invalidRate, int? seed, BurstId burst)
    {
        var poison = new List<PoisonOrder>();
        return new OrderSet([.. Generate(count, invalidRate, seed, poison.Add, burst)], poison, burst);
    }

    /// <summary>
    /// The burst <see cref="Generate(int, double, int?)"/> makes, one order at a time as enumerated: the valid orders
    /// are returned, and each poison entry is handed to <paramref name="poison"/> when its place comes.
    /// </summary>
    public static IEnumerable<Order> Generate(
        int count, double invalidRate, int? seed, Action<PoisonOrder> poison, BurstId burst)
    {
        CheckInvalidRate(invalidRate);
        return Split();

        IEnumerable<Order> Split()
        {
            var i = 0;
            var poisonCount = 0;
            foreach (var order in Orders(count, seed, burst))
            {
                // Entry i is poison when the running share of poison steps up there: evenly spread, exact in total.
                if (Math.Floor((i + 1) * invalidRate) > Math.Floor(i * invalidRate))
                {
                    poison(MakePoison(order, (PoisonKind)(poisonCount++ % 3)));
                }
                else
                {
                    yield return order;
                }

                i++;
            }
        }
    }

    /// <summary>
    /// How many of <paramref name="count"/> entries are valid orders at <paramref name="invalidRate"/>, without making
    /// them.
    /// </summary>
    public static int ValidCount(int count, double invalidRate)
    {
        CheckInvalidRate(invalidRate);
        // The running share's steps add up to the share of the whole: the same arithmetic as Generate's.
        return count - (int)Math.Floor(count * invalidRate);
    }

    private static void CheckInvalidRate(double invalidRate)
    {
        if (invalidRate is < 0 or >= 1 || double.IsNaN(invalidRate))
        {
            var given = invalidRate.ToString(CultureInfo.InvariantCulture);
            throw new ArgumentException($"--invalid-rate must be at least 0 and below 1, not {given}.");
        }
    }

    private static IEnumerable<Order> Orders(int count, int? seed, BurstId burst)
    {
        if (count > BurstId.OrdersPerBurst)
        {
            throw new ArgumentException($"A burst holds at most {BurstId.OrdersPerBurst} orders, not {count}.");
        }

        var faker = seed is { } s ? new Faker { Random = new Randomizer(s) } : new Faker();
        return Enumerable.Range(0, count).Select(i => new Order
        {
            OrderId = burst.FirstOrderId + i,
            OrderGuid = faker.Random.Guid(),
            Description = faker.Commerce.ProductDescription(),
            FirstName = faker.Name.FirstName(),
            LastName = faker.Name.LastName(),
            Delivery = faker.Random.Bool() ? Delivery.Express : Delivery.Standard,
            Items = Enumerable.Range(1, faker.Random.Int(1, 5)).Select(n => new OrderItem
            {
                OrderItemId = n,
                SKU = faker.Random.Replace("####-####-####"),
                Quantity = faker.Random.Int(1, 10),
            }).ToList(),
        });
    }

    private static PoisonOrder MakePoison(Order order, PoisonKind kind)
    {
        if (kind == PoisonKind.NotJson)
        {
            return new PoisonOrder(order.OrderId, kind, "text/plain",
                string.Create(CultureInfo.InvariantCulture,
                    $"order {order.OrderId} for {order.LastName}: not JSON at all <{order.Description}>"));
        }

        var json = JsonNode.Parse(OrderJson.Serialize(order))!.AsObject();
        if (kind == PoisonKind.UnknownDelivery)
        {
            json["Delivery"] = "Overnight";
        }
        else
        {
            json.Remove("OrderGuid");
            json.Remove("Delivery");
        }

        return new PoisonOrder(order.OrderId, kind, "application/json", json.ToJsonString());
    }
}
