using System.Runtime.CompilerServices;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using System.Threading.Channels;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Generation;

/// <summary>
/// An <see cref="OrderSet"/> in a file, or in blob <c>test-data/orders.json</c>. Format 2 is an object
/// <c>{"Format":2,"Burst":483920,"Orders":[…],"Poison":[{"Id","Kind","ContentType","Payload"}]}</c>, every id in the
/// burst's range (<see cref="BurstId"/>); a file without "Burst", or format 1, a bare JSON array of valid orders (read
/// as a burst without poison), is of the burst its ids are in. Both ways stream: neither the file's bytes nor a
/// document of it are held whole (150,000 orders are 66 MB of JSON).
/// </summary>
public static class OrderFile
{
    public const int CurrentFormat = 2;

    /// <summary>Orders a reader of <see cref="ReadOrdersAsync"/> keeps ready for its caller.</summary>
    private const int OrdersReadAhead = 1_024;

    private static readonly JsonSerializerOptions PoisonJson = new() { PropertyNameCaseInsensitive = true };

    /// <summary>
    /// The orders' own serializer settings (Delivery as text...), and case-insensitive names for the file's envelope.
    /// </summary>
    private static readonly JsonSerializerOptions FileJson =
        new(OrderJson.Options) { PropertyNameCaseInsensitive = true };

    public static Task WriteAsync(string path, OrderSet set, CancellationToken cancellationToken) =>
        WriteAsync(path, set.Orders, set.Poison, set.Burst, cancellationToken);

    /// <param name="poison">
    /// Written after the orders: it may fill while <paramref name="orders"/> is enumerated.
    /// </param>
    public static async Task WriteAsync(
        string path, IEnumerable<Order> orders, IReadOnlyList<PoisonOrder> poison, BurstId burst,
        CancellationToken cancellationToken)
    {
        if (Path.GetDirectoryName(Path.GetFullPath(path)) is { } folder)
        {
            Directory.CreateDirectory(folder);
        }

        await using var file = File.Create(path);
        await WriteAsync(file, orders, poison, burst, cancellationToken);
    }

    public static Task WriteAsync(Stream stream, OrderSet set, CancellationToken cancellationToken) =>
        WriteAsync(stream, set.Orders, set.Poison, set.Burst, cancellationToken);

    /// <param name="poison">
    /// Written after the orders: it may fill while <paramref name="orders"/> is enumerated.
    /// </param>
    public static async Task WriteAsync(
        Stream stream, IEnumerable<Order> orders, IReadOnlyList<PoisonOrder> poison, BurstId burst,
        CancellationToken cancellationToken)
    {
        await using var json = new Utf8JsonWriter(stream);
        json.WriteStartObject();
        json.WriteNumber("Format", CurrentFormat);
        json.WriteNumber("Burst", burst.Value);
        json.WriteStartArray("Orders");
        foreach (var order in orders)
        {
            JsonSerializer.Serialize(json, order, OrderJsonContext.Default.Order);
            if (json.BytesPending > 65_536)
            {
                await json.FlushAsync(cancellationToken);
            }
        }

        json.WriteEndArray();
        json.WritePropertyName("Poison");
        JsonSerializer.Serialize(json, poison, PoisonJson);
        json.WriteEndObject();
        await json.FlushAsync(cancellationToken);
    }

    /// <summary>
    /// The whole set, every order held: for small files and tests; the commands read an <see cref="OrderIndex"/>.
    /// </summary>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    /// <exception cref="InvalidDataException">The file is not a set of valid orders.</exception>
    public static async Task<OrderSet> ReadSetAsync(string path, CancellationToken cancellationToken)
    {
        var orders = new List<Order>();
        var (poison, burst) = await ReadCheckedAsync(path, orders.Add, cancellationToken);
        return new OrderSet(orders, poison, burst);
    }

    /// <param name="stream">A stream that can seek: its first character tells the format.</param>
    /// <exception cref="InvalidDataException">The stream is not a set of valid orders.</exception>
    public static async Task<OrderSet> ReadSetAsync(Stream stream, CancellationToken cancellationToken)
    {
        var orders = new List<Order>();
        var (poison, burst) = await ReadCheckedAsync(stream, orders.Add, cancellationToken);
        return new OrderSet(orders, poison, burst);
    }

    /// <summary>
    /// The file checked whole, as <see cref="ReadSetAsync(string, CancellationToken)"/> does, keeping only each valid
    /// order's id and delivery.
    /// </summary>
    /// <exception cref="FileNotFoundException">There is no file at <paramref name="path"/>.</exception>
    /// <exception cref="InvalidDataException">The file is not a set of valid orders.</exception>
    public static async Task<OrderIndex> ReadIndexAsync(string path, CancellationToken cancellationToken)
    {
        var deliveryOf = new Dictionary<long, Delivery>();
        var (poison, burst) = await ReadCheckedAsync(
            path, order => deliveryOf[order.OrderId] = order.Delivery, cancellationToken);
        return new OrderIndex(deliveryOf, poison, burst);
    }

    /// <summary>
    /// The valid orders of a file already checked (<see cref="ReadIndexAsync"/>), one at a time in the file's order: a
    /// reader thread stays at most <see cref="OrdersReadAhead"/> orders ahead of the caller.
    /// </summary>
    public static async IAsyncEnumerable<Order> ReadOrdersAsync(
        string path, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var channel = Channel.CreateBounded<Order>(
            new BoundedChannelOptions(OrdersReadAhead) { SingleReader = true, SingleWriter = true });
        // The serializer hands orders over synchronously, so the reader waits for room on a thread of its own.
        var reading = Task.Factory.StartNew(() =>
        {
            try
            {
                using var file = OpenExisting(path);
                Read(file, order =>
                {
                    while (!channel.Writer.TryWrite(order))
                    {
                        channel.Writer.WaitToWriteAsync(stop.Token).AsTask().GetAwaiter().GetResult();
                    }
                }, stop.Token);
                channel.Writer.Complete();
            }
            catch (Exception e)
            {
                channel.Writer.Complete(e);
            }
        }, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        try
        {
            await foreach (var order in channel.Reader.ReadAllAsync(cancellationToken))
            {
                yield return order;
            }
        }
        finally
        {
            await stop.CancelAsync();
            await reading;
        }
    }

    /// <summary>
    /// Reads the file at <paramref name="path"/> checked whole; a fault in it is named with the file.
    /// </summary>
    private static async Task<(IReadOnlyList<PoisonOrder> Poison, BurstId Burst)> ReadCheckedAsync(
        string path, Action<Order> each, CancellationToken cancellationToken)
    {
        await using var file = OpenExisting(path);
        try
        {
            return await ReadCheckedAsync(file, each, cancellationToken);
        }
        catch (InvalidDataException e)
        {
            throw new InvalidDataException($"{path}: {e.Message}", e);
        }
    }

    private static FileStream OpenExisting(string path) =>
        File.Exists(path)
            ? File.OpenRead(path)
            : throw new FileNotFoundException($"No orders file at {path}: run 'generate' first.", path);

    /// <summary>
    /// Hands each valid order to <paramref name="each"/> as it is read; checks every order, the poison, that no id
    /// repeats and that every id is of one burst.
    /// </summary>
    private static async Task<(IReadOnlyList<PoisonOrder> Poison, BurstId Burst)> ReadCheckedAsync(
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
    private static (List<PoisonOrder> Poison, long? Burst) Read(
        Stream stream, Action<Order> each, CancellationToken cancellationToken)
    {
        var sink = new OrderSink(order =>
        {
            cancellationToken.ThrowIfCancellationRequested();
            each(order);
        });
        var options = OptionsFilling(sink);
        switch (FirstCharacter(stream))
        {
            // Format 1: a bare array of valid orders.
            case '[':
                _ = JsonSerializer.Deserialize<OrderSink>(stream, options)
                    ?? throw new InvalidDataException("\"Orders\" is not an array.");
                return ([], null);
            case '{':
                var content = JsonSerializer.Deserialize<OrderFileContent>(stream, options);
                return (Format2(content), content!.Burst);
            default:
                throw new InvalidDataException(
                    "The orders file holds neither an array of orders nor an orders object.");
        }
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

    private static List<PoisonOrder> Format2(OrderFileContent? content)
    {
        if (content?.Format != CurrentFormat)
        {
            throw new InvalidDataException(
                $"The orders file is not format {CurrentFormat}: generate it again with this version of order-load.");
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
