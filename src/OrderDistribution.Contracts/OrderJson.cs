using System.Text.Json;

namespace OrderDistribution.Contracts;

/// <summary>The one serializer configuration: PascalCase out, any case in, Delivery as a string.</summary>
public static class OrderJson
{
    public static JsonSerializerOptions Options => OrderJsonContext.Default.Options;

    public static byte[] Serialize(Order order) =>
        JsonSerializer.SerializeToUtf8Bytes(order, OrderJsonContext.Default.Order);

    /// <summary>Reads an order and checks what the JSON shape alone cannot: a defined delivery and an id.</summary>
    /// <exception cref="InvalidOrderException">The bytes are not a valid order.</exception>
    public static Order Deserialize(ReadOnlySpan<byte> utf8Json)
    {
        Order? order;
        try
        {
            order = JsonSerializer.Deserialize(utf8Json, OrderJsonContext.Default.Order);
        }
        catch (JsonException e)
        {
            throw new InvalidOrderException($"not an order: {e.Message}");
        }

        return Validate(order);
    }

    public static Order Deserialize(JsonElement element)
    {
        Order? order;
        try
        {
            order = element.Deserialize(OrderJsonContext.Default.Order);
        }
        catch (JsonException e)
        {
            throw new InvalidOrderException($"not an order: {e.Message}");
        }

        return Validate(order);
    }

    /// <exception cref="InvalidOrderException">The order breaks a rule the JSON shape alone cannot express.</exception>
    public static Order Validate(Order? order)
    {
        if (order is null)
        {
            throw new InvalidOrderException("not an order: the JSON is null");
        }

        if (!Enum.IsDefined(order.Delivery))
        {
            throw new InvalidOrderException($"order {order.OrderId}: unknown delivery '{order.Delivery}'");
        }

        if (order.OrderId <= 0)
        {
            throw new InvalidOrderException($"order {order.OrderId}: OrderId must be positive");
        }

        if (order.OrderGuid == Guid.Empty)
        {
            throw new InvalidOrderException($"order {order.OrderId}: OrderGuid must not be empty");
        }

        return order;
    }
}
