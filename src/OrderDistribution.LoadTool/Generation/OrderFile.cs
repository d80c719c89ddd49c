using System.Runtime.CompilerServices;
using System.Text.Json;
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

    /// <summary>The envelope of format 2 and its poison entries: any case in.</summary>
    internal static readonly JsonSerializerOptions EnvelopeJson = new() { PropertyNameCaseInsensitive = true };

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
        JsonSerializer.Serialize(json, poison, EnvelopeJson);
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
        var (poison, burst) = await OrderFileReader.ReadCheckedAsync(stream, orders.Add, cancellationToken);
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
                OrderFileReader.Read(file, order =>
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
            return await OrderFileReader.ReadCheckedAsync(file, each, cancellationToken);
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
}
