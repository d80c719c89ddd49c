using System.Text.Json;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool;

/// <summary>
/// The orders of one burst: the valid ones, and the poison mixed in on purpose (<c>generate --invalid-rate</c>).
/// </summary>
public sealed record OrderSet(IReadOnlyList<Order> Orders, IReadOnlyList<PoisonOrder> Poison)
{
    public int Count => Orders.Count + Poison.Count;

    public static OrderSet ValidOnly(IReadOnlyList<Order> orders) => new(orders, []);
}

/// <summary>
/// An <see cref="OrderSet"/> in a file, or in blob <c>test-data/orders.json</c>. Format 2 is an object
/// <c>{"Format":2,"Orders":[…],"Poison":[{"Id","Kind","ContentType","Payload"}]}</c>; format 1, a bare JSON
/// array of valid orders, is still read (as a burst without poison).
/// </summary>
public static class OrderFile
{
    public const int CurrentFormat = 2;

    private static readonly JsonSerializerOptions PoisonJson = new() { PropertyNameCaseInsensitive = true };

    public static byte[] Serialize(List<Order> orders) => Serialize(OrderSet.ValidOnly(orders));

    public static byte[] Serialize(OrderSet set)
    {
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteNumber("Format", CurrentFormat);
            json.WritePropertyName("Orders");
            JsonSerializer.Serialize(json, set.Orders.ToList(), OrderJsonContext.Default.ListOrder);
            json.WritePropertyName("Poison");
            JsonSerializer.Serialize(json, set.Poison, PoisonJson);
            json.WriteEndObject();
        }

        return buffer.ToArray();
    }

    /// <summary>The valid orders only; see <see cref="DeserializeSet"/> for the poison as well.</summary>
    public static List<Order> Deserialize(byte[] json) => DeserializeSet(json).Orders.ToList();

    public static OrderSet DeserializeSet(byte[] json)
    {
        try
        {
            using var document = JsonDocument.Parse(json);
            var set = document.RootElement.ValueKind switch
            {
                // Format 1: a bare array of valid orders.
                JsonValueKind.Array => OrderSet.ValidOnly(ReadOrders(document.RootElement)),
                JsonValueKind.Object => ReadFormat2(document.RootElement),
                _ => throw new InvalidDataException("The orders file holds neither an array of orders nor an orders object."),
            };
            return CheckIdsUnique(set);
        }
        catch (Exception e) when (e is JsonException or InvalidOrderException)
        {
            throw new InvalidDataException($"The orders file is not a valid set of orders: {e.Message}", e);
        }
    }

    public static async Task WriteAsync(string path, List<Order> orders, CancellationToken cancellationToken) =>
        await WriteAsync(path, OrderSet.ValidOnly(orders), cancellationToken);

    public static async Task WriteAsync(string path, OrderSet set, CancellationToken cancellationToken)
    {
        if (Path.GetDirectoryName(Path.GetFullPath(path)) is { } folder)
        {
            Directory.CreateDirectory(folder);
        }

        await File.WriteAllBytesAsync(path, Serialize(set), cancellationToken);
    }

    /// <summary>The valid orders only; see <see cref="ReadSetAsync"/> for the poison as well.</summary>
    public static async Task<List<Order>> ReadAsync(string path, CancellationToken cancellationToken) =>
        (await ReadSetAsync(path, cancellationToken)).Orders.ToList();

    public static async Task<OrderSet> ReadSetAsync(string path, CancellationToken cancellationToken) =>
        File.Exists(path)
            ? DeserializeSet(await File.ReadAllBytesAsync(path, cancellationToken))
            : throw new FileNotFoundException($"No orders file at {path}: run 'generate' first.", path);

    private static List<Order> ReadOrders(JsonElement array) =>
        array.ValueKind == JsonValueKind.Array
            ? array.EnumerateArray().Select(OrderJson.Deserialize).ToList()
            : throw new InvalidDataException("\"Orders\" is not an array.");

    private static OrderSet ReadFormat2(JsonElement root)
    {
        if (!root.TryGetProperty("Format", out var format) || !format.TryGetInt32(out var version) || version != CurrentFormat)
        {
            throw new InvalidDataException($"The orders file is not format {CurrentFormat}: generate it again with this version of order-load.");
        }

        var orders = root.TryGetProperty("Orders", out var array) ? ReadOrders(array) : throw new InvalidDataException("\"Orders\" is missing.");
        var poison = root.TryGetProperty("Poison", out var poisonArray) && poisonArray.ValueKind != JsonValueKind.Null
            ? poisonArray.Deserialize<List<PoisonOrder>>(PoisonJson) ?? []
            : [];
        foreach (var p in poison)
        {
            if (p.Id <= 0 || p.Payload is null || string.IsNullOrWhiteSpace(p.ContentType) || !Enum.IsDefined(p.Kind))
            {
                throw new InvalidDataException($"Poison entry {p.Id} needs a positive Id, a Kind, a ContentType and a Payload.");
            }
        }

        return new OrderSet(orders, poison);
    }

    private static OrderSet CheckIdsUnique(OrderSet set)
    {
        var ids = set.Orders.Select(o => o.OrderId).Concat(set.Poison.Select(p => p.Id));
        if (ids.GroupBy(id => id).FirstOrDefault(g => g.Count() > 1) is { } twice)
        {
            throw new InvalidDataException($"Id {twice.Key} appears more than once in the orders file.");
        }

        return set;
    }
}
