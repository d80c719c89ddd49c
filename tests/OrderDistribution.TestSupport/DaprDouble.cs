using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text;
using System.Text.Json;
using System.Threading.Channels;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace OrderDistribution.TestSupport;

public enum DeliveryStyle
{
    Bulk,
    Single,
}

public sealed record DaprDoubleOptions
{
    public int MaxMessagesCount { get; init; } = 250;

    public TimeSpan MaxAwait { get; init; } = TimeSpan.FromMilliseconds(40);

    /// <summary>Bulk deliveries a subscriber gets at once (the sidecar's concurrency over its batch size).</summary>
    public int ConcurrentBulkDeliveries { get; init; } = 2;

    /// <summary>Single deliveries a subscriber gets at once: the component's <c>concurrency</c>, 500 in this project.</summary>
    public int ConcurrentSingleDeliveries { get; init; } = 500;

    /// <summary>How long a message answered RETRY (or a whole batch answered with an error) waits before it is delivered again.</summary>
    public TimeSpan RedeliveryDelay { get; init; } = TimeSpan.FromMilliseconds(200);

    /// <summary>The share of published messages the broker refuses, answered as the sidecar answers a failed publish.</summary>
    public double PublishFailureRate { get; init; }

    /// <summary>Every message is put on its queue twice, as an at-least-once broker may deliver it.</summary>
    public bool DeliverEveryMessageTwice { get; init; }

    public int Seed { get; init; } = 1;
}

/// <summary>What happened to the messages of one topic.</summary>
public sealed class TopicReport
{
    private int _deliveries;
    private int _retried;
    private int _dropped;
    private int _wholeDeliveriesRedelivered;
    private long _longestAnswerTicks;

    public int Deliveries => Volatile.Read(ref _deliveries);

    public int Retried => Volatile.Read(ref _retried);

    public int Dropped => Volatile.Read(ref _dropped);

    public int WholeDeliveriesRedelivered => Volatile.Read(ref _wholeDeliveriesRedelivered);

    public TimeSpan LongestAnswer => TimeSpan.FromTicks(Interlocked.Read(ref _longestAnswerTicks));

    /// <summary>The messages answered DROP, by the id they were first published under (duplicates share it).</summary>
    public ConcurrentDictionary<string, byte[]> DroppedMessages { get; } = new();

    internal void Delivered(TimeSpan answeredAfter)
    {
        Interlocked.Increment(ref _deliveries);
        var ticks = answeredAfter.Ticks;
        long longest;
        while (ticks > (longest = Interlocked.Read(ref _longestAnswerTicks))
               && Interlocked.CompareExchange(ref _longestAnswerTicks, ticks, longest) != longest)
        {
        }
    }

    internal void Retry() => Interlocked.Increment(ref _retried);

    internal void Drop(string origin, byte[] payload)
    {
        Interlocked.Increment(ref _dropped);
        DroppedMessages.TryAdd(origin, payload);
    }

    internal void RedeliverWhole() => Interlocked.Increment(ref _wholeDeliveriesRedelivered);
}

/// <summary>
/// A Dapr sidecar and its broker for in-process runs, behaving as the real ones do (docs/dapr-sidecar.md): it takes
/// the apps' bulk and single publishes on the sidecar's HTTP API (failing a chosen share of them as the sidecar
/// answers a failed publish), keeps one queue per topic, and delivers each queue to its app in bulk (base64
/// raw-payload entries under fresh entry ids) or one CloudEvent at a time. An entry answered SUCCESS is done;
/// DROP is done and never delivered again; RETRY, a missing status or a failed request brings it back later,
/// alone or in new batches; a 404 drops a whole delivery.
/// </summary>
public sealed class DaprDouble : IAsyncDisposable
{
    private readonly DaprDoubleOptions _options;
    private readonly WebApplication _app;
    private readonly ConcurrentDictionary<string, Channel<Message>> _queues = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _workers = [];
    private readonly Random _random;
    private readonly TaskCompletionSource _quiet = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _outstanding;
    private long _nextId;

    private DaprDouble(DaprDoubleOptions options, WebApplication app)
    {
        _options = options;
        _app = app;
        _random = new Random(options.Seed);
    }

    public Uri Address => LoopbackServer.AddressOf(_app);

    public ConcurrentDictionary<string, TopicReport> Topics { get; } = new();

    public int PublishesRefused => _publishesRefused;

    private int _publishesRefused;

    public static async Task<DaprDouble> StartAsync(DaprDoubleOptions options)
    {
        var app = LoopbackServer.Create();
        var sidecar = new DaprDouble(options, app);
        app.MapPost("/v1.0-alpha1/publish/bulk/{pubsub}/{topic}", (string topic, HttpRequest request) => sidecar.BulkPublishAsync(topic, request));
        app.MapPost("/v1.0/publish/{pubsub}/{topic}", (string topic, HttpRequest request) => sidecar.PublishAsync(topic, request));
        app.MapGet("/v1.0/healthz/outbound", () => Results.NoContent());
        await app.StartAsync();
        return sidecar;
    }

    /// <summary>Delivers the topic's queue to an app, from now until the double is disposed.</summary>
    public void Subscribe(string topic, HttpClient app, DeliveryStyle style)
    {
        var report = Topics.GetOrAdd(topic, _ => new TopicReport());
        var queue = Queue(topic);
        var workers = style == DeliveryStyle.Bulk ? _options.ConcurrentBulkDeliveries : _options.ConcurrentSingleDeliveries;
        for (var i = 0; i < workers; i++)
        {
            _workers.Add(style == DeliveryStyle.Bulk
                ? Task.Run(() => DeliverBulksAsync(topic, app, queue, report))
                : Task.Run(() => DeliverSinglesAsync(topic, app, queue, report)));
        }
    }

    /// <summary>Puts a message on a topic's queue, as a publisher outside the apps would.</summary>
    public void Enqueue(string topic, byte[] payload) => Put(topic, payload);

    /// <summary>Waits until every message put on any queue is done (SUCCESS or DROP), or the time is up.</summary>
    /// <returns>False when messages were still outstanding at the timeout.</returns>
    public async Task<bool> WaitUntilQuietAsync(TimeSpan timeout)
    {
        try
        {
            await _quiet.Task.WaitAsync(timeout);
            return true;
        }
        catch (TimeoutException)
        {
            return false;
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        foreach (var queue in _queues.Values)
        {
            queue.Writer.TryComplete();
        }

        await Task.WhenAll(_workers.Select(w => w.ContinueWith(_ => { }, TaskScheduler.Default)));
        await _app.DisposeAsync();
        _stop.Dispose();
    }

    private Channel<Message> Queue(string topic) => _queues.GetOrAdd(topic, _ => Channel.CreateUnbounded<Message>());

    private void Put(string topic, byte[] payload)
    {
        var origin = Interlocked.Increment(ref _nextId).ToString(System.Globalization.CultureInfo.InvariantCulture);
        var copies = _options.DeliverEveryMessageTwice ? 2 : 1;
        Interlocked.Add(ref _outstanding, copies);
        for (var i = 0; i < copies; i++)
        {
            Queue(topic).Writer.TryWrite(new Message(origin, payload));
        }
    }

    private void Done()
    {
        if (Interlocked.Decrement(ref _outstanding) == 0)
        {
            _quiet.TrySetResult();
        }
    }

    private void Redeliver(string topic, Message message) =>
        _ = Task.Delay(_options.RedeliveryDelay, _stop.Token)
            .ContinueWith(_ => Queue(topic).Writer.TryWrite(message), TaskScheduler.Default);

    private bool Refuse()
    {
        lock (_random)
        {
            return _random.NextDouble() < _options.PublishFailureRate;
        }
    }

    private async Task<IResult> BulkPublishAsync(string topic, HttpRequest request)
    {
        using var body = await JsonDocument.ParseAsync(request.Body);
        var maxBytes = int.Parse(request.Query["metadata.maxBulkPubBytes"].ToString(), System.Globalization.CultureInfo.InvariantCulture);
        var tooLarge = request.ContentLength > maxBytes;
        var failed = new List<object>();
        foreach (var entry in body.RootElement.EnumerateArray())
        {
            var entryId = entry.GetProperty("entryId").GetString()!;
            if (tooLarge || Refuse())
            {
                failed.Add(new { entryId, error = tooLarge ? "the message is too large" : "chosen to fail" });
                continue;
            }

            Put(topic, PayloadOf(entry.GetProperty("event")));
        }

        if (failed.Count == 0)
        {
            return Results.NoContent();
        }

        Interlocked.Add(ref _publishesRefused, failed.Count);
        return Results.Json(new { failedEntries = failed, errorCode = "ERR_PUBSUB_PUBLISH_MESSAGE" }, statusCode: 500);
    }

    private async Task<IResult> PublishAsync(string topic, HttpRequest request)
    {
        using var buffer = new MemoryStream();
        await request.Body.CopyToAsync(buffer);
        if (Refuse())
        {
            Interlocked.Increment(ref _publishesRefused);
            return Results.Json(new { errorCode = "ERR_PUBSUB_PUBLISH_MESSAGE", message = "chosen to fail" }, statusCode: 500);
        }

        Put(topic, buffer.ToArray());
        return Results.NoContent();
    }

    private static byte[] PayloadOf(JsonElement @event) =>
        @event.ValueKind == JsonValueKind.String ? Encoding.UTF8.GetBytes(@event.GetString()!) : Encoding.UTF8.GetBytes(@event.GetRawText());

    private async Task DeliverBulksAsync(string topic, HttpClient app, Channel<Message> queue, TopicReport report)
    {
        var reader = queue.Reader;
        while (await WaitToReadAsync(reader))
        {
            var batch = new List<Message>(_options.MaxMessagesCount);
            var gatherUntil = Stopwatch.GetTimestamp() + (long)(_options.MaxAwait.TotalSeconds * Stopwatch.Frequency);
            while (batch.Count < _options.MaxMessagesCount)
            {
                if (reader.TryRead(out var message))
                {
                    batch.Add(message);
                }
                else if (Stopwatch.GetTimestamp() < gatherUntil)
                {
                    await Task.Delay(5);
                }
                else
                {
                    break;
                }
            }

            if (batch.Count > 0)
            {
                await DeliverBulkAsync(topic, app, batch, report);
            }
        }
    }

    private async Task DeliverBulkAsync(string topic, HttpClient app, List<Message> batch, TopicReport report)
    {
        var entries = batch.Select(m => (EntryId: Guid.NewGuid().ToString(), Message: m)).ToList();
        var body = JsonSerializer.Serialize(new
        {
            entries = entries.Select(e => new
            {
                entryId = e.EntryId, @event = Convert.ToBase64String(e.Message.Payload), metadata = (object?)null,
                contentType = "application/octet-stream",
            }),
            id = Guid.NewGuid().ToString(),
            metadata = new { pubsubName = "order-pubsub" },
            pubsubname = "order-pubsub",
            topic,
            type = "com.dapr.event.sent.bulk",
        });
        var (status, answer) = await PostAsync(app, $"/{topic}-bulk", body, "application/json", report);
        if (status == 404)
        {
            entries.ForEach(e => Settle(topic, e.Message, "DROP", report));
            return;
        }

        if (status is not (>= 200 and < 300))
        {
            report.RedeliverWhole();
            entries.ForEach(e => Settle(topic, e.Message, "RETRY", report));
            return;
        }

        var statuses = ReadStatuses(answer);
        entries.ForEach(e => Settle(topic, e.Message, statuses.GetValueOrDefault(e.EntryId, "RETRY"), report));
    }

    private async Task DeliverSinglesAsync(string topic, HttpClient app, Channel<Message> queue, TopicReport report)
    {
        while (await WaitToReadAsync(queue.Reader))
        {
            if (!queue.Reader.TryRead(out var message))
            {
                continue;
            }

            var body = JsonSerializer.Serialize(new Dictionary<string, object>
            {
                ["data_base64"] = Convert.ToBase64String(message.Payload),
                ["datacontenttype"] = "application/octet-stream",
                ["id"] = Guid.NewGuid().ToString(),
                ["pubsubname"] = "order-pubsub",
                ["source"] = "Dapr",
                ["specversion"] = "1.0",
                ["topic"] = topic,
                ["type"] = "com.dapr.event.sent",
            });
            var (status, answer) = await PostAsync(app, $"/{topic}-single", body, "application/cloudevents+json", report);
            var outcome = status switch
            {
                404 => "DROP",
                >= 200 and < 300 when string.IsNullOrWhiteSpace(answer) => "SUCCESS",
                >= 200 and < 300 => ReadStatus(answer),
                _ => "RETRY",
            };
            Settle(topic, message, outcome, report);
        }
    }

    private async Task<bool> WaitToReadAsync(ChannelReader<Message> reader)
    {
        try
        {
            return await reader.WaitToReadAsync(_stop.Token);
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    private async Task<(int Status, string Body)> PostAsync(HttpClient app, string route, string body, string contentType, TopicReport report)
    {
        var clock = Stopwatch.StartNew();
        try
        {
            using var content = new StringContent(body, Encoding.UTF8, contentType);
            using var response = await app.PostAsync(route, content, _stop.Token);
            var answer = await response.Content.ReadAsStringAsync(_stop.Token);
            return ((int)response.StatusCode, answer);
        }
        catch (Exception e) when (e is HttpRequestException or OperationCanceledException)
        {
            return (0, "");
        }
        finally
        {
            report.Delivered(clock.Elapsed);
        }
    }

    private void Settle(string topic, Message message, string status, TopicReport report)
    {
        switch (status)
        {
            case "SUCCESS":
                Done();
                break;
            case "DROP":
                report.Drop(message.Origin, message.Payload);
                Done();
                break;
            default:
                report.Retry();
                Redeliver(topic, message);
                break;
        }
    }

    private static Dictionary<string, string> ReadStatuses(string answer)
    {
        try
        {
            using var document = JsonDocument.Parse(answer);
            return document.RootElement.GetProperty("statuses").EnumerateArray()
                .ToDictionary(s => s.GetProperty("entryId").GetString()!, s => s.GetProperty("status").GetString()!);
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or ArgumentException)
        {
            return [];
        }
    }

    private static string ReadStatus(string answer)
    {
        try
        {
            using var document = JsonDocument.Parse(answer);
            return document.RootElement.GetProperty("status").GetString() ?? "RETRY";
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException)
        {
            return "RETRY";
        }
    }

    private sealed record Message(string Origin, byte[] Payload);
}
