using System.Text.Json;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// How <see cref="OrderFile"/> reads either format as a stream, each valid order handed on as it is read, and checks
/// the set: every order and poison entry, no id twice, every id of one burst.
/// </summary>
internal static class OrderFileReader
{
    /// <summary>
    /// Hands each valid order to <paramref name="each"/> as it is read; checks every order, the poison, that no id
    /// repeats and that every id is of one burst.
    /// </summary>
    public static async Task<(IReadOnlyList<PoisonOrder> Poison, BurstId Burst)> ReadCheckedAsync(
        Stream stream, Action<Order> each, CancellationToken cancellationToken)
    {
        var seen = new HashSet<long>();
        try
        {
            var (poison, named) = await Task.Run(() => Read(stream, order =>
            {
                Unique(seen, order.OrderId);
                each(order);
            }, cancellationToken), cancellationToken);
            var valid = seen.Count;
            foreach (var p in poison)
            {
                Unique(seen, p.Id);
            }

            if (valid == 0)
            {
                throw new InvalidDataException("The orders file holds no valid order: generate it again");
            }

            return (poison, BurstOf(seen, named));
        }
        catch (Exception e) when (e is JsonException or InvalidOrderException)
        {
            throw new InvalidDataException($"The orders file is not a valid set of orders: {e.Message}", e);
        }
    }

    /// <summary>
    /// The burst the file names, else the one its ids are in; every id must be of it (a burst is one range of ids).
    /// </summary>
    private static BurstId BurstOf(HashSet<long> ids, long? named)
    {
        if (ids.Count == 0)
        {
            return named is { } value ? new BurstId(value) : BurstId.Legacy;
        }

        var (lowest, highest) = (ids.Min(), ids.Max());
        var burst = named is { } id ? new BurstId(id) : BurstId.Of(lowest);
        foreach (var outside in new[] { lowest, highest }.Where(i => !burst.Holds(i)))
        {
            throw new InvalidDataException(named is null
                ? $"The orders file holds ids of more than one burst ({lowest} and {highest}): generate it again."
                : $"Id {outside} is not of the file's burst {burst} " +
                  $"(ids {burst.FirstOrderId} to {burst.FirstOrderId + BurstId.OrdersPerBurst - 1}).");
        }

        return burst;
    }

    private static void Unique(HashSet<long> seen, long id)
    {
        if (!seen.Add(id))
        {
            throw new InvalidDataException($"Id {id} appears more than once in the orders file.");
        }
    }

    /// <summary>Reads either format as a stream, handing each valid order on as it is read.</summary>
    /// <returns>The poison, and the burst the file names (format 2 written by this version).</returns>
    public static (List<PoisonOrder> Poison, long? Burst) Read(
        Stream stream, Action<Order> each, CancellationToken cancellationToken)
    {
        var json = new JsonChunkReader(stream);
        switch (json.Peek())
        {
            // Format 1: a bare array of valid orders.
            case JsonTokenType.StartArray:
                ReadOrders(json, each, cancellationToken);
                return ([], null);
            case JsonTokenType.StartObject:
                return ReadFormat2(json, each, cancellationToken);
            default:
                throw new InvalidDataException(
                    "The orders file holds neither an array of orders nor an orders object.");
        }
    }

    private static (List<PoisonOrder> Poison, long? Burst) ReadFormat2(
        JsonChunkReader json, Action<Order> each, CancellationToken cancellationToken)
    {
        int? format = null;
        long? burst = null;
        var orders = false;
        List<PoisonOrder>? poison = null;
        json.Read();
        while (json.Read() is (JsonTokenType.PropertyName, { } name))
        {
            if (Is(name, "Format"))
            {
                format = json.ReadValue(v => JsonSerializer.Deserialize<int?>(v, OrderFile.EnvelopeJson));
            }
            else if (Is(name, "Burst"))
            {
                burst = json.ReadValue(v => JsonSerializer.Deserialize<long?>(v, OrderFile.EnvelopeJson));
            }
            else if (Is(name, "Orders") && json.Peek() != JsonTokenType.Null)
            {
                ReadOrders(json, each, cancellationToken);
                orders = true;
            }
            else if (Is(name, "Poison"))
            {
                poison = json.ReadValue(v => JsonSerializer.Deserialize<List<PoisonOrder>>(v, OrderFile.EnvelopeJson));
            }
            else
            {
                json.ReadValue(_ => 0);
            }
        }

        if (format != OrderFile.CurrentFormat)
        {
            throw new InvalidDataException(
                $"The orders file is not format {OrderFile.CurrentFormat}: " +
                "generate it again with this version of order-load.");
        }

        if (!orders)
        {
            throw new InvalidDataException("\"Orders\" is missing.");
        }

        poison ??= [];
        foreach (var p in poison)
        {
            if (p.Id <= 0 || p.Payload is null || string.IsNullOrWhiteSpace(p.ContentType) || !Enum.IsDefined(p.Kind))
            {
                throw new InvalidDataException(
                    $"Poison entry {p.Id} needs a positive Id, a Kind, a ContentType and a Payload.");
            }
        }

        return (poison, burst);
    }

    /// <summary>Hands on each order of the array that comes next, checked, as soon as it is read.</summary>
    private static void ReadOrders(JsonChunkReader json, Action<Order> each, CancellationToken cancellationToken)
    {
        if (json.Read().Type != JsonTokenType.StartArray)
        {
            throw new InvalidDataException("\"Orders\" is not an array.");
        }

        for (var i = 0; json.Peek() != JsonTokenType.EndArray; i++)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var index = i;
            each(json.ReadValue(order => Checked(order, index)));
        }

        json.Read();
    }

    /// <exception cref="InvalidDataException">The order is not valid; named by its place in the array.</exception>
    private static Order Checked(ReadOnlySpan<byte> order, int index)
    {
        try
        {
            return OrderJson.Deserialize(order);
        }
        catch (InvalidOrderException e)
        {
            throw new InvalidDataException(
                $"The orders file is not a valid set of orders: $.Orders[{index}]: {e.Message}", e);
        }
    }

    private static bool Is(string name, string property) => name.Equals(property, StringComparison.OrdinalIgnoreCase);
}
