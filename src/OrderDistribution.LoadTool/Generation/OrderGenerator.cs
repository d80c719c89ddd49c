using System.Globalization;
using System.Text.Json.Nodes;
using Bogus;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>Makes orders with realistic fake data, about half express and half standard.</summary>
public static class OrderGenerator
{
    public const long FirstOrderId = 1_000_000;

    public static List<Order> Generate(int count, int? seed = null)
    {
        var faker = seed is { } s ? new Faker { Random = new Randomizer(s) } : new Faker();
        return Enumerable.Range(0, count).Select(i => new Order
        {
            OrderId = FirstOrderId + i,
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
        }).ToList();
    }

    /// <summary>
    /// <paramref name="count"/> entries in one id sequence, of which the share <paramref name="invalidRate"/> is
    /// poison, spread evenly through the burst and taking turns: unknown delivery, missing fields, not JSON.
    /// The valid orders are those <see cref="Generate"/> makes with the same seed, minus the poison's places.
    /// </summary>
    public static OrderSet Generate(int count, double invalidRate, int? seed = null)
    {
        if (invalidRate is < 0 or >= 1 || double.IsNaN(invalidRate))
        {
            throw new ArgumentException($"--invalid-rate must be at least 0 and below 1, not {invalidRate.ToString(CultureInfo.InvariantCulture)}.");
        }

        var all = Generate(count, seed);
        var orders = new List<Order>(count);
        var poison = new List<PoisonOrder>();
        for (var i = 0; i < all.Count; i++)
        {
            // Entry i is poison when the running share of poison steps up there: evenly spread, exact in total.
            if (Math.Floor((i + 1) * invalidRate) > Math.Floor(i * invalidRate))
            {
                poison.Add(MakePoison(all[i], (PoisonKind)(poison.Count % 3)));
            }
            else
            {
                orders.Add(all[i]);
            }
        }

        return new OrderSet(orders, poison);
    }

    private static PoisonOrder MakePoison(Order order, PoisonKind kind)
    {
        if (kind == PoisonKind.NotJson)
        {
            return new PoisonOrder(order.OrderId, kind, "text/plain",
                string.Create(CultureInfo.InvariantCulture, $"order {order.OrderId} for {order.LastName}: not JSON at all <{order.Description}>"));
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
