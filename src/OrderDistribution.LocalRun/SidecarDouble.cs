using System.Buffers;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text;
using System.Text.Json;
using System.Threading.Channels;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using OrderDistribution.Messaging;

namespace OrderDistribution.LocalRun;

/// <summary>
/// A Dapr sidecar and its broker for in-process runs, behaving as the real ones do (docs/dapr-sidecar.md): it takes
/// the apps' bulk and single publishes and output binding calls on the sidecar's HTTP API (failing a chosen share
/// of them as the sidecar answers a failed publish), keeps one queue per topic or output binding, and delivers each
/// queue to its app in bulk (base64 raw-payload entries under fresh entry ids), one CloudEvent at a time, or as an
/// input binding (the raw body). An entry answered SUCCESS (a binding: 2xx) is done; DROP (a binding: 400, which
/// the broker dead-letters) is done and never delivered again; a 404 drops a whole delivery. RETRY, a missing status or
/// a failed request brings a binding's message back after <see cref="SidecarDoubleOptions.RetryInterval"/> (RabbitMQ's
/// nack with requeue). A pub/sub message is what <c>pubsub.redis</c> makes of it: its delivery context runs
/// <see cref="SidecarDoubleOptions.ProcessingTimeout"/> from when it was read, the inbound retries run inside it, and
/// once they are spent the <see cref="SidecarDoubleOptions.Runtime"/> keeps it pending or acknowledges it (counted as
/// <see cref="TopicReport.AcknowledgedUnstored"/>); a pending message is handed out again once it has been pending
/// <c>ProcessingTimeout</c>, looked for every <see cref="SidecarDoubleOptions.RedeliverInterval"/>
/// (docs/dapr-sidecar.md, "What the sidecar answers, and what it does on its own" and "pubsub.redis after its retries are spent"). An attempt still running when its context ends is not cut off: the apps
/// answer within their deadline, which the shipped processingTimeout outlasts.
/// </summary>
public sealed class SidecarDouble : IAsyncDisposable
{
    private readonly SidecarDoubleOptions _options;
    private readonly WebApplication _app;
    private readonly ConcurrentDictionary<string, Channel<Message>> _queues = new();
    private readonly ConcurrentDictionary<string, List<Message>> _pending = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _workers = [];
    private readonly Random _random;
    private readonly Lock _outstandingLock = new();
    private TaskCompletionSource _quiet = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _outstanding;
    private long _nextId;

    private SidecarDouble(SidecarDoubleOptions options, WebApplication app)
    {
        _options = options;
        _app = app;
        _random = new Random(options.Seed);
    }

    public Uri Address => LoopbackServer.AddressOf(_app);

    public ConcurrentDictionary<string, TopicReport> Topics { get; } = new();

    public int PublishesRefused => _publishesRefused;

    private int _publishesRefused;

    public static async Task<SidecarDouble> StartAsync(SidecarDoubleOptions options)
    {
        var app = LoopbackServer.Create();
        var sidecar = new SidecarDouble(options, app);
        app.MapPost("/v1.0-alpha1/publish/bulk/{pubsub}/{topic}", (string topic, HttpRequest request) => sidecar.BulkPublishAsync(topic, request));
        app.MapPost("/v1.0/publish/{pubsub}/{topic}", (string topic, HttpRequest request) => sidecar.PublishAsync(topic, request));
        app.MapPost("/v1.0/bindings/{name}", (string name, HttpRequest request) => sidecar.InvokeBindingAsync(name, request));
        app.MapGet("/v1.0/healthz/outbound", () => Results.NoContent());
        app.MapGet("/v1.0/metadata", () => Results.Json(new { id = "sidecar-double" }));
        await app.StartAsync();
        sidecar._workers.Add(Task.Run(sidecar.HandOutPendingAsync));
        return sidecar;
    }

    /// <summary>Delivers the topic's queue to an app, from now until the double is disposed.</summary>
    /// <param name="topic">The topic; with <see cref="MessagingModel.Bindings"/>, the output binding that fills the queue.</param>
    /// <param name="inputBinding">With <see cref="MessagingModel.Bindings"/>: the app's input binding on that queue.</param>
    public void Subscribe(string topic, HttpClient app, MessagingModel model, string? inputBinding = null)
    {
        var report = Topics.GetOrAdd(topic, _ => new TopicReport());
        var queue = Queue(topic);
        var workers = model switch
        {
            MessagingModel.PubSubBulk => _options.ConcurrentBulkDeliveries,
            MessagingModel.PubSubSingle => _options.ConcurrentSingleDeliveries,
            _ => _options.ConcurrentBindingDeliveries,
        };
        var route = model == MessagingModel.Bindings
            ? "/" + (inputBinding ?? throw new ArgumentNullException(nameof(inputBinding), "a binding delivery needs the app's input binding"))
            : null;
        for (var i = 0; i < workers; i++)
        {
            _workers.Add(model switch
            {
                MessagingModel.PubSubBulk => Task.Run(() => DeliverBulksAsync(topic, app, queue, report)),
                MessagingModel.PubSubSingle => Task.Run(() => DeliverSinglesAsync(topic, app, queue, report)),
                _ => Task.Run(() => DeliverBindingsAsync(topic, route!, app, queue, report)),
            });
        }
    }

    /// <summary>Puts messages on a topic's queue, as a publisher outside the apps would (the load tool scheduling a burst).</summary>
    public void Enqueue(string topic, IEnumerable<byte[]> payloads)
    {
        foreach (var payload in payloads)
        {
            Put(topic, payload);
        }
    }

    /// <summary>Waits until every message put on any queue is done (SUCCESS or DROP), or the time is up; burst after burst.</summary>
    /// <returns>False when messages were still outstanding at the timeout.</returns>
    public async Task<bool> WaitUntilQuietAsync(TimeSpan timeout)
    {
        Task quiet;
        lock (_outstandingLock)
        {
            quiet = _outstanding == 0 ? Task.CompletedTask : _quiet.Task;
        }

        try
        {
            await quiet.WaitAsync(timeout);
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
        lock (_outstandingLock)
        {
            if (_outstanding == 0)
            {
                _quiet = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            }

            _outstanding += copies;
        }

        for (var i = 0; i < copies; i++)
        {
            Queue(topic).Writer.TryWrite(new Message(origin, payload));
        }
    }

    private void Done()
    {
        lock (_outstandingLock)
        {
            if (--_outstanding == 0)
            {
                _quiet.TrySetResult();
            }
        }
    }

    private void Redeliver(string topic, Message message) =>
        _ = Task.Delay(_options.RetryInterval, _stop.Token)
            .ContinueWith(_ => Queue(topic).Writer.TryWrite(message), TaskScheduler.Default);

    private long ContextEnd(Message message) => message.ReadAt + (long)(_options.ProcessingTimeout.TotalSeconds * Stopwatch.Frequency);

    /// <summary>
    /// A pub/sub message taken off its queue: read now when it is new (its context starts), or a retry; a retry whose
    /// context ended while it waited is left pending instead.
    /// </summary>
    /// <returns>Whether to deliver it now.</returns>
    private bool Take(string topic, Message message, TopicReport report)
    {
        if (message.ReadAt == 0)
        {
            message.ReadAt = Stopwatch.GetTimestamp();
            message.Retries = 0;
            return true;
        }

        if (Stopwatch.GetTimestamp() < ContextEnd(message))
        {
            return true;
        }

        Park(topic, message, report);
        return false;
    }

    /// <summary>A pub/sub message answered RETRY: retried within its context, then kept pending or acknowledged.</summary>
    private void RetryOrPark(string topic, Message message, TopicReport report)
    {
        var now = Stopwatch.GetTimestamp();
        var contextEnd = ContextEnd(message);
        if (now >= contextEnd)
        {
            Park(topic, message, report);
        }
        else if (_options.MaxRetries >= 0 && message.Retries >= _options.MaxRetries)
        {
            // The retries are spent while the context still runs: from 1.17 pubsub.redis acknowledges the message.
            if (_options.Runtime == PubSubRuntime.Dapr117AndNewer)
            {
                report.AcknowledgeUnstored(message.Origin);
                Done();
            }
            else
            {
                Park(topic, message, report);
            }
        }
        else if (now + (long)(_options.RetryInterval.TotalSeconds * Stopwatch.Frequency) >= contextEnd)
        {
            // The context ends during the wait: the retry is cancelled, the message stays pending.
            Park(topic, message, report);
        }
        else
        {
            message.Retries++;
            Redeliver(topic, message);
        }
    }

    private void Park(string topic, Message message, TopicReport report)
    {
        report.Park();
        var pending = _pending.GetOrAdd(topic, _ => []);
        lock (pending)
        {
            pending.Add(message);
        }
    }

    /// <summary>pubsub.redis's redelivery: every redeliverInterval, what has been pending processingTimeout is read again.</summary>
    private async Task HandOutPendingAsync()
    {
        using var timer = new PeriodicTimer(_options.RedeliverInterval);
        try
        {
            while (await timer.WaitForNextTickAsync(_stop.Token))
            {
                var now = Stopwatch.GetTimestamp();
                foreach (var (topic, pending) in _pending)
                {
                    var due = new List<Message>();
                    lock (pending)
                    {
                        pending.RemoveAll(m =>
                        {
                            var isDue = now >= ContextEnd(m);
                            if (isDue)
                            {
                                due.Add(m);
                            }

                            return isDue;
                        });
                    }

                    foreach (var message in due)
                    {
                        Topics[topic].HandOutAgain();
                        message.ReadAt = 0;
                        Queue(topic).Writer.TryWrite(message);
                    }
                }
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

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

    /// <summary>An output binding's <c>create</c>: the data goes on the binding's queue as it is.</summary>
    private async Task<IResult> InvokeBindingAsync(string name, HttpRequest request)
    {
        using var body = await JsonDocument.ParseAsync(request.Body);
        if (Refuse())
        {
            Interlocked.Increment(ref _publishesRefused);
            return Results.Json(new { errorCode = "ERR_INVOKE_OUTPUT_BINDING", message = "chosen to fail" }, statusCode: 500);
        }

        Put(name, PayloadOf(body.RootElement.GetProperty("data")));
        return Results.Ok();
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
                    if (Take(topic, message, report))
                    {
                        batch.Add(message);
                    }
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
        // Written straight to bytes, as the sidecar's own encoder does: the double's cost stays small beside the apps'.
        var body = Json(json =>
        {
            json.WriteStartObject();
            json.WriteStartArray("entries");
            foreach (var (entryId, message) in entries)
            {
                json.WriteStartObject();
                json.WriteString("entryId", entryId);
                json.WriteBase64String("event", message.Payload);
                json.WriteNull("metadata");
                json.WriteString("contentType", "application/octet-stream");
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteString("id", Guid.NewGuid().ToString());
            json.WriteStartObject("metadata");
            json.WriteString("pubsubName", "order-pubsub");
            json.WriteEndObject();
            json.WriteString("pubsubname", "order-pubsub");
            json.WriteString("topic", topic);
            json.WriteString("type", "com.dapr.event.sent.bulk");
            json.WriteEndObject();
        });
        var (status, answer) = await PostAsync(app, $"/{topic}-bulk", body, "application/json", report);
        if (status == 404)
        {
            entries.ForEach(e => Settle(topic, e.Message, "DROP", report, MessagingModel.PubSubBulk));
            return;
        }

        if (status is not (>= 200 and < 300))
        {
            report.RedeliverWhole();
            entries.ForEach(e => Settle(topic, e.Message, "RETRY", report, MessagingModel.PubSubBulk));
            return;
        }

        var statuses = ReadStatuses(answer);
        entries.ForEach(e => Settle(topic, e.Message, statuses.GetValueOrDefault(e.EntryId, "RETRY"), report, MessagingModel.PubSubBulk));
    }

    private async Task DeliverSinglesAsync(string topic, HttpClient app, Channel<Message> queue, TopicReport report)
    {
        while (await WaitToReadAsync(queue.Reader))
        {
            if (!queue.Reader.TryRead(out var message) || !Take(topic, message, report))
            {
                continue;
            }

            var body = Json(json =>
            {
                json.WriteStartObject();
                json.WriteBase64String("data_base64", message.Payload);
                json.WriteString("datacontenttype", "application/octet-stream");
                json.WriteString("id", Guid.NewGuid().ToString());
                json.WriteString("pubsubname", "order-pubsub");
                json.WriteString("source", "Dapr");
                json.WriteString("specversion", "1.0");
                json.WriteString("topic", topic);
                json.WriteString("type", "com.dapr.event.sent");
                json.WriteEndObject();
            });
            var (status, answer) = await PostAsync(app, $"/{topic}-single", body, "application/cloudevents+json", report);
            var outcome = status switch
            {
                404 => "DROP",
                >= 200 and < 300 when string.IsNullOrWhiteSpace(answer) => "SUCCESS",
                >= 200 and < 300 => ReadStatus(answer),
                _ => "RETRY",
            };
            Settle(topic, message, outcome, report, MessagingModel.PubSubSingle);
        }
    }

    /// <summary>As the RabbitMQ input binding delivers: the raw body under a message id; a 400 dead-letters it.</summary>
    private async Task DeliverBindingsAsync(string queueName, string route, HttpClient app, Channel<Message> queue, TopicReport report)
    {
        while (await WaitToReadAsync(queue.Reader))
        {
            if (!queue.Reader.TryRead(out var message))
            {
                continue;
            }

            var (status, _) = await PostAsync(app, route, message.Payload, "application/json", report, ("Messageid", message.Origin));
            Settle(queueName, message, status switch
            {
                >= 200 and < 300 => "SUCCESS",
                400 => "DROP",
                _ => "RETRY",
            }, report, MessagingModel.Bindings);
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

    private async Task<(int Status, string Body)> PostAsync(
        HttpClient app, string route, ReadOnlyMemory<byte> body, string contentType, TopicReport report, (string Name, string Value)? header = null)
    {
        var clock = Stopwatch.StartNew();
        try
        {
            using var content = new ReadOnlyMemoryContent(body);
            content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue(contentType);
            if (header is var (name, value))
            {
                content.Headers.Add(name, value);
            }

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

    private static ReadOnlyMemory<byte> Json(Action<Utf8JsonWriter> write)
    {
        var buffer = new ArrayBufferWriter<byte>(1024);
        using (var json = new Utf8JsonWriter(buffer))
        {
            write(json);
        }

        return buffer.WrittenMemory;
    }

    private void Settle(string topic, Message message, string status, TopicReport report, MessagingModel model)
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
                if (model == MessagingModel.Bindings)
                {
                    Redeliver(topic, message);
                }
                else
                {
                    RetryOrPark(topic, message, report);
                }

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

    private sealed class Message(string origin, byte[] payload)
    {
        public string Origin { get; } = origin;

        public byte[] Payload { get; } = payload;

        /// <summary>When the component read it (or handed it out again), its context's start; 0 while it waits unread.</summary>
        public long ReadAt { get; set; }

        /// <summary>The inbound retries spent in its current context.</summary>
        public int Retries { get; set; }
    }
}
