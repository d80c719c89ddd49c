using Bogus;
using OrderDistribution.Orders;

namespace OrderDistribution.LoadTool;

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
}
