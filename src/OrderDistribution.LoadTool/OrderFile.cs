using System.Text.Json;
using OrderDistribution.Orders;

namespace OrderDistribution.LoadTool;

/// <summary>A set of orders as one JSON array, in a file or in blob <c>test-data/orders.json</c>.</summary>
public static class OrderFile
{
    public static byte[] Serialize(List<Order> orders) =>
        JsonSerializer.SerializeToUtf8Bytes(orders, OrderJsonContext.Default.ListOrder);

    public static List<Order> Deserialize(byte[] json)
    {
        try
        {
            var orders = JsonSerializer.Deserialize(json, OrderJsonContext.Default.ListOrder)
                         ?? throw new InvalidDataException("The orders file holds null, not an array of orders.");
            return orders.Select(OrderJson.Validate).ToList();
        }
        catch (Exception e) when (e is JsonException or InvalidOrderException)
        {
            throw new InvalidDataException($"The orders file is not an array of valid orders: {e.Message}", e);
        }
    }

    public static async Task WriteAsync(string path, List<Order> orders, CancellationToken cancellationToken)
    {
        if (Path.GetDirectoryName(Path.GetFullPath(path)) is { } folder)
        {
            Directory.CreateDirectory(folder);
        }

        await File.WriteAllBytesAsync(path, Serialize(orders), cancellationToken);
    }

    public static async Task<List<Order>> ReadAsync(string path, CancellationToken cancellationToken) =>
        File.Exists(path)
            ? Deserialize(await File.ReadAllBytesAsync(path, cancellationToken))
            : throw new FileNotFoundException($"No orders file at {path}: run 'generate' first.", path);
}
