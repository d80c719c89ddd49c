using System.Collections;
using System.Globalization;
using System.Text;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace OrderDistribution.TestSupport.Brokers;

/// <summary>
/// Every message published into one vhost, as RabbitMQ's firehose copies it before any consumer can take it: a queue
/// of its own bound to the vhost's <c>amq.rabbitmq.trace</c> with <c>publish.#</c>. Tracing must be on in the vhost
/// (<c>rabbitmqctl trace_on -p VHOST</c>). Consumers on the traced queues (a sidecar that takes and requeues) do not
/// change what it sees.
/// </summary>
public sealed class RabbitMqFirehose : IAsyncDisposable
{
    private const string TraceExchange = "amq.rabbitmq.trace";

    /// <summary>Header names a transport of the call would leave on a message (gRPC, HTTP, Dapr's own).</summary>
    private static readonly string[] TransportHeaders = ["dapr-", "content-type", "user-agent", ":authority",
        "authorization", "grpc-"];

    private readonly IConnection _connection;
    private readonly IChannel _channel;
    private readonly List<TracedMessage> _published = [];

    private RabbitMqFirehose(IConnection connection, IChannel channel)
    {
        _connection = connection;
        _channel = channel;
    }

    /// <param name="vhost">The AMQP URI of the vhost to read, with a login that may bind in it.</param>
    public static async Task<RabbitMqFirehose> OpenAsync(Uri vhost, CancellationToken ct)
    {
        var connection = await new ConnectionFactory
        {
            Uri = vhost,
            AutomaticRecoveryEnabled = false
        }.CreateConnectionAsync(ct);
        try
        {
            var channel = await connection.CreateChannelAsync(cancellationToken: ct);
            var firehose = new RabbitMqFirehose(connection, channel);
            var queue = await channel.QueueDeclareAsync("", durable: false, exclusive: true, autoDelete: true,
                cancellationToken: ct);
            await channel.QueueBindAsync(queue.QueueName, TraceExchange, "publish.#", cancellationToken: ct);
            var consumer = new AsyncEventingBasicConsumer(channel);
            consumer.ReceivedAsync += (_, copy) =>
            {
                var traced = TracedMessage.From(copy.BasicProperties.Headers, copy.Body.ToArray());
                lock (firehose._published)
                {
                    firehose._published.Add(traced);
                }

                return Task.CompletedTask;
            };
            await channel.BasicConsumeAsync(queue.QueueName, autoAck: true, consumer, ct);
            return firehose;
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    /// <summary>What was published into the vhost since it opened, in order.</summary>
    public IReadOnlyList<TracedMessage> Published
    {
        get
        {
            lock (_published)
            {
                return [.. _published];
            }
        }
    }

    /// <summary>
    /// The messages published to <paramref name="queue"/> (the default exchange, routed by the queue's name).
    /// </summary>
    public IReadOnlyList<TracedMessage> PublishedTo(string queue) =>
        [.. Published.Where(m => m.Exchange.Length == 0 && m.RoutingKeys.Contains(queue))];

    /// <summary>
    /// Waits until <paramref name="count"/> messages were published to <paramref name="queue"/>, or the time is up.
    /// </summary>
    public async Task<IReadOnlyList<TracedMessage>> WaitForAsync(string queue, int count, TimeSpan limit,
        CancellationToken ct)
    {
        var deadline = DateTime.UtcNow + limit;
        while (PublishedTo(queue).Count < count && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100, ct);
        }

        return PublishedTo(queue);
    }

    /// <summary>
    /// What must not be on a broker message, one "name: value" each: a header a transport of the call leaves (Dapr's,
    /// gRPC's, HTTP's), or <paramref name="secret"/> (the API token) or a gRPC content type in any header or property.
    /// </summary>
    public static IReadOnlyList<string> Forbidden(TracedMessage message, string secret) =>
    [
        .. message.Headers.Select(h => (Where: "header", h.Key, h.Value))
            .Concat(message.Properties.Select(p => (Where: "property", p.Key, p.Value)))
            .Where(e =>
                (e.Where == "header"
                && TransportHeaders.Any(t => e.Key.StartsWith(t, StringComparison.OrdinalIgnoreCase)))
                        || e.Value.Contains(secret, StringComparison.Ordinal)
                        || e.Value.Contains("application/grpc", StringComparison.OrdinalIgnoreCase))
            .Select(e => $"{e.Where} {e.Key}: {e.Value}"),
    ];

    public async ValueTask DisposeAsync()
    {
        await _channel.DisposeAsync();
        await _connection.DisposeAsync();
    }

    private static string Text(object? value) => value switch
    {
        null => "",
        byte[] bytes => Encoding.UTF8.GetString(bytes),
        IDictionary<string,
            object?> table => "{" + string.Join(", ", table.Select(e => $"{e.Key}: {Text(e.Value)}")) + "}",
        IEnumerable list and not string => "[" + string.Join(", ", list.Cast<object?>().Select(Text)) + "]",
        _ => Convert.ToString(value, CultureInfo.InvariantCulture) ?? "",
    };

    /// <summary>
    /// One publish as the firehose reports it: where it went, the message's own headers and properties, its body.
    /// </summary>
    public sealed record TracedMessage(
        string Exchange,
        IReadOnlyList<string> RoutingKeys,
        IReadOnlyDictionary<string, string> Headers,
        IReadOnlyDictionary<string, string> Properties,
        byte[] Body)
    {
        /// <param name="trace">The trace copy's headers: exchange_name, routing_keys, properties (with the message's
        /// headers).</param>
        internal static TracedMessage From(IDictionary<string, object?>? trace, byte[] body)
        {
            trace ??= new Dictionary<string, object?>();
            var properties = trace.TryGetValue("properties", out var p) && p is IDictionary<string, object?> table
                ? table
                : new Dictionary<string, object?>();
            var headers = properties.TryGetValue("headers", out var h) && h is IDictionary<string, object?> own
                ? own
                : new Dictionary<string, object?>();
            return new TracedMessage(
                Text(trace.TryGetValue("exchange_name", out var exchange) ? exchange : null),
                trace.TryGetValue("routing_keys", out var keys)
                    && keys is IEnumerable list ? [.. list.Cast<object?>().Select(Text)] : [],
                headers.ToDictionary(e => e.Key, e => Text(e.Value)),
                properties.Where(e => e.Key != "headers").ToDictionary(e => e.Key, e => Text(e.Value)),
                body);
        }
    }
}
