using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// How <see cref="OrderFile"/> reads the file as a stream, each valid order handed on as it is read, and checks
/// the set: every order and poison entry, no id twice, every id of one burst.
/// </summary>
internal static class OrderFileReader
{
    /// <summary>
    /// The orders' own serializer settings (Delivery as text...), and case-insensitive names for the file's envelope.
    /// </summary>
    private static readonly JsonSerializerOptions FileJson =
        new(OrderJson.Options) { PropertyNameCaseInsensitive = true };

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

    /// <summary>Reads the file as a stream, handing each valid order on as it is read.</summary>
    /// <returns>The poison, and the burst the file names, if it names one.</returns>
    public static (List<PoisonOrder> Poison, long? Burst) Read(
        Stream stream, Action<Order> each, CancellationToken cancellationToken)
    {
        var sink = new OrderSink(order =>
        {
            cancellationToken.ThrowIfCancellationRequested();
            each(order);
        });
        if (FirstCharacter(stream) != '{')
        {
            throw new InvalidDataException(
                $"The orders file is not an orders object of format {OrderFile.CurrentFormat}: " +
                "generate it again with this version of order-load.");
        }

        var content = JsonSerializer.Deserialize<OrderFileContent>(stream, OptionsFilling(sink));
        return (Checked(content), content!.Burst);
    }

    /// <summary>
    /// The file's serializer settings, with <paramref name="sink"/> as the one collection the orders array fills.
    /// </summary>
    private static JsonSerializerOptions OptionsFilling(OrderSink sink) => new(FileJson)
    {
        TypeInfoResolver = JsonTypeInfoResolver.Combine(OrderJsonContext.Default, new DefaultJsonTypeInfoResolver
        {
            Modifiers =
            {
                type =>
                {
                    if (type.Type == typeof(OrderSink))
                    {
                        type.CreateObject = () => sink;
                    }
                },
            },
        }),
    };

    private static char FirstCharacter(Stream stream)
    {
        int read;
        while ((read = stream.ReadByte()) is ' ' or '\t' or '\r' or '\n' or 0xEF or 0xBB or 0xBF)
        {
        }

        stream.Seek(0, SeekOrigin.Begin);
        return (char)read;
    }

    private static List<PoisonOrder> Checked(OrderFileContent? content)
    {
        if (content?.Format != OrderFile.CurrentFormat)
        {
            throw new InvalidDataException(
                $"The orders file is not format {OrderFile.CurrentFormat}: " +
                "generate it again with this version of order-load.");
        }

        if (content.Orders is null)
        {
            throw new InvalidDataException("\"Orders\" is missing.");
        }

        var poison = content.Poison ?? [];
        foreach (var p in poison)
        {
            if (p.Id <= 0 || p.Payload is null || string.IsNullOrWhiteSpace(p.ContentType) || !Enum.IsDefined(p.Kind))
            {
                throw new InvalidDataException(
                    $"Poison entry {p.Id} needs a positive Id, a Kind, a ContentType and a Payload.");
            }
        }

        return poison;
    }
}
