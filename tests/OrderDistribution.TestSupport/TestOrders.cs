using OrderDistribution.Contracts;

namespace OrderDistribution.TestSupport;

public static class TestOrders
{
    public static Order Make(long id, Delivery delivery, int descriptionLength = 12) => new()
    {
        OrderId = id,
        OrderGuid = new Guid((int)id, 0, 0, [1, 2, 3, 4, 5, 6, 7, 8]),
        Description = new string('d', descriptionLength),
        FirstName = "Ann",
        LastName = "Lee",
        Delivery = delivery,
        Items = [new OrderItem { OrderItemId = 1, SKU = $"SKU-{id}", Quantity = 2 }],
    };

    public static List<Order> Many(int count, long firstId = 1, int descriptionLength = 12) =>
        Enumerable.Range(0, count)
            .Select(i => Make(firstId + i, i % 2 == 0 ? Delivery.Express : Delivery.Standard, descriptionLength))
            .ToList();

    /// <summary>An order's canonical JSON, for comparing orders field by field, items included.</summary>
    public static string Json(Order order) => System.Text.Encoding.UTF8.GetString(OrderJson.Serialize(order));
}
