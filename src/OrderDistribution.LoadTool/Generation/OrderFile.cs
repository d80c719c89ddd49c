using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// An <see cref="OrderSet"/> in a file, or in blob <c>test-data/orders.json</c>. Format 2 is an object
/// <c>{"Format":2,"Orders":[…],"Poison":[{"Id","Kind","ContentType","Payload"}]}</c>; format 1, a bare JSON
/// array of valid orders, is still read (as a burst without poison). Both ways stream: neither the file's bytes
/// nor a document of it are held whole (150,000 orders are 66 MB of JSON).
/// </summary>
public static class OrderFile
{
    public const int CurrentFormat = 2;

    private static readonly JsonSerializerOptions PoisonJson = new() { PropertyNameCaseInsensitive = true };

    /// <summary>The orders' own serializer settings (Delivery as text...), and case-insensitive names for the file's envelope.</summary>
    private static readonly JsonSerializerOptions FileJson = new(OrderJson.Options)
    {
        PropertyNameCaseInsensitive = true,
        TypeInfoResolver = JsonTypeInfoResolver.Combine(OrderJsonContext.Default, new DefaultJsonTypeInfoResolver()),
    };

    public static async Task WriteAsync(string path, OrderSet set, CancellationToken cancellationToken)
    {
        if (Path.GetDirectoryName(Path.GetFullPath(path)) is { } folder)
        {
            Directory.CreateDirectory(folder);
        }

        await using var file = File.Create(path);
        await WriteAsync(file, set, cancellationToken);
    }

    public static async Task WriteAsync(Stream stream, OrderSet set, CancellationToken cancellationToken)
    {
        await using var json = new Utf8JsonWriter(stream);
        json.WriteStartObject();
        json.WriteNumber("Format", CurrentFormat);
        json.WriteStartArray("Orders");
        foreach (var order in set.Orders)
        {
            JsonSerializer.Serialize(json, order, OrderJsonContext.Default.Order);
            if (json.BytesPending > 65_536)
            {
                await json.FlushAsync(cancellationToken);
            }
        }

        json.WriteEndArray();
        json.WritePropertyName("Poison");
        JsonSerializer.Serialize(json, set.Poison, PoisonJson);
        json.WriteEndObject();
        await json.FlushAsync(cancellationToken);
    }

    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    /// <exception cref="InvalidDataException">The file is not a set of valid orders.</exception>
    public static async Task<OrderSet> ReadSetAsync(string path, CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
        {
            throw new FileNotFoundException($"No orders file at {path}: run 'generate' first.", path);
        }

        await using var file = File.OpenRead(path);
        return await ReadSetAsync(file, cancellationToken);
    }

    /// <param name="stream">A stream that can seek: its first character tells the format.</param>
    /// <exception cref="InvalidDataException">The stream is not a set of valid orders.</exception>
    public static async Task<OrderSet> ReadSetAsync(Stream stream, CancellationToken cancellationToken)
    {
        try
        {
            var set = FirstCharacter(stream) switch
            {
                // Format 1: a bare array of valid orders.
                '[' => OrderSet.ValidOnly(Valid(await JsonSerializer.DeserializeAsync(stream, OrderJsonContext.Default.ListOrder, cancellationToken))),
                '{' => Format2(await JsonSerializer.DeserializeAsync<OrderFileContent>(stream, FileJson, cancellationToken)),
                _ => throw new InvalidDataException("The orders file holds neither an array of orders nor an orders object."),
            };
            return CheckIdsUnique(set);
        }
        catch (Exception e) when (e is JsonException or InvalidOrderException)
        {
            throw new InvalidDataException($"The orders file is not a valid set of orders: {e.Message}", e);
        }
    }

    private static char FirstCharacter(Stream stream)
    {
        int read;
        while ((read = stream.ReadByte()) is ' ' or '\t' or '\r' or '\n' or 0xEF or 0xBB or 0xBF)
        {
        }

        stream.Seek(0, SeekOrigin.Begin);
        return (char)read;
    }

    private static List<Order> Valid(List<Order>? orders)
    {
        if (orders is null)
        {
            throw new InvalidDataException("\"Orders\" is not an array.");
        }

        foreach (var order in orders)
        {
            OrderJson.Validate(order);
        }

        return orders;
    }

    private static OrderSet Format2(OrderFileContent? content)
    {
        if (content?.Format != CurrentFormat)
        {
            throw new InvalidDataException($"The orders file is not format {CurrentFormat}: generate it again with this version of order-load.");
        }

        var orders = content.Orders is null ? throw new InvalidDataException("\"Orders\" is missing.") : Valid(content.Orders);
        var poison = content.Poison ?? [];
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
        var seen = new HashSet<long>();
        foreach (var id in set.Orders.Select(o => o.OrderId).Concat(set.Poison.Select(p => p.Id)))
        {
            if (!seen.Add(id))
            {
                throw new InvalidDataException($"Id {id} appears more than once in the orders file.");
            }
        }

        return set;
    }
}
