using System.Buffers;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;
using System.Threading.Channels;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;
using InvokeBindingRequest = Dapr.Client.Autogen.Grpc.v1.InvokeBindingRequest;
using OrderDistribution.Messaging;

namespace OrderDistribution.SidecarEmulator;

/// <summary>
/// A Dapr sidecar and its broker for in-process runs, behaving as the real ones do (docs/dapr-sidecar.md): it takes
/// the apps' bulk and single publishes and output binding calls on the sidecar's HTTP API (failing a chosen share
/// of them as the sidecar answers a failed publish), keeps one queue per topic or output binding, and delivers each
/// queue to its app in bulk (base64 raw-payload entries under fresh entry ids), one CloudEvent at a time, or as an
/// input binding (the raw body). An entry answered SUCCESS (a binding: 2xx) is done; DROP (a binding: 400, which
/// the broker dead-letters) is done and never delivered again; a 404 drops a whole request. RETRY, a missing status or
/// a failed request brings a binding's message back after <see cref="EmulatedSidecarOptions.RetryInterval"/> (RabbitMQ's
/// nack with requeue). A pub/sub message is what <c>pubsub.redis</c> makes of it: its delivery context runs
/// <see cref="EmulatedSidecarOptions.ProcessingTimeout"/> from when it was read, the inbound retries run inside it, and
/// once they are spent the <see cref="EmulatedSidecarOptions.Runtime"/> keeps it pending or acknowledges it (counted as
/// <see cref="QueueReport.AcknowledgedUnstored"/>); a pending message is handed out again once it has been pending
/// <c>ProcessingTimeout</c>, looked for every <see cref="EmulatedSidecarOptions.RedeliverInterval"/>
/// (docs/dapr-sidecar.md, "What the sidecar answers, and what it does on its own" and "pubsub.redis after its retries are spent"). An attempt still running when its context ends is not cut off: the apps
/// answer within their deadline, which the shipped processingTimeout outlasts.
/// <para>
/// Its modes for tests: recording (<see cref="EmulatedSidecarOptions.RecordRequests"/>: every request, and each output
/// binding call as the <see cref="Runtime"/> hands it to the binding), fault injection (<see cref="FailEntry"/>,
/// <see cref="MaxBulkRequestBytes"/>, the answers, <see cref="Hang"/>, <see cref="OutboundHealthStatus"/>,
/// <see cref="EmulatedSidecarOptions.PublishFailureRate"/>) and gRPC (<see cref="EmulatedSidecarOptions.ServeGrpc"/>).
/// </para>
/// </summary>
public sealed class EmulatedSidecar : IAsyncDisposable
{
    private readonly EmulatedSidecarOptions _options;
    private readonly WebApplication _app;
    private readonly WebApplication? _grpc;
    private readonly ConcurrentDictionary<string, Channel<Message>> _queues = new();
    private readonly ConcurrentDictionary<string, List<Message>> _pending = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Task> _workers = [];
    private readonly Random _random;
    private readonly Lock _outstandingLock = new();
    private TaskCompletionSource _quiet = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _outstanding;
    private long _nextId;

    private EmulatedSidecar(EmulatedSidecarOptions options, WebApplication app, WebApplication? grpc)
    {
        _options = options;
        _app = app;
        _grpc = grpc;
        _random = new Random(options.Seed);
        Runtime = options.Runtime;
        Metadata = options.Metadata;
    }

    /// <summary>The sidecar's HTTP API (daprd's 3500).</summary>
    public Uri Address => LoopbackServer.AddressOf(_app);

    /// <summary>The sidecar's gRPC API (daprd's 50001), in the gRPC mode only.</summary>
    public Uri GrpcAddress => LoopbackServer.AddressOf(_grpc ?? throw new InvalidOperationException("The emulator serves gRPC only with ServeGrpc."));

    /// <summary>Whose sidecar this is; a test may change it between calls.</summary>
    public DaprRuntimeProfile Runtime { get; set; }

    /// <summary>Every request on the sidecar's HTTP API, in the recording mode.</summary>
    public ConcurrentQueue<SidecarRequest> Requests { get; } = new();

    /// <summary>Each output binding call, as the binding (and so the broker's message) got it, in the recording mode.</summary>
    public ConcurrentQueue<BindingMessage> BindingMessages { get; } = new();

    /// <summary>When set, an output binding call is answered with this status and body instead.</summary>
    public Func<SidecarRequest, (int Status, string Body)?>? BindingAnswer { get; set; }

    /// <summary>When set, a single publish is answered with this status and body instead.</summary>
    public Func<SidecarRequest, (int Status, string Body)?>? PublishAnswer { get; set; }

    /// <summary>When set, a bulk publish is answered with this status and body instead, whatever it holds.</summary>
    public Func<SidecarRequest, (int Status, string Body)>? BulkAnswer { get; set; }

    /// <summary>Entries of a bulk publish (by their event) for which this answers true are reported failed.</summary>
    public Func<JsonElement, bool>? FailEntry { get; set; }

    /// <summary>A bulk publish whose body is larger than this fails as a whole, as Azure Service Bus refuses it ("the message is too large").</summary>
    public int? MaxBulkRequestBytes { get; set; }

    /// <summary>When set, every publish and binding call waits on it (or until the caller gives up) before it is answered.</summary>
    public Task? Hang { get; set; }

    /// <summary>What <c>GET /v1.0/healthz/outbound</c> answers.</summary>
    public int OutboundHealthStatus { get; set; } = StatusCodes.Status204NoContent;

    /// <summary>What <c>GET /v1.0/metadata</c> answers (the sidecar's components and subscriptions); 404 when null.</summary>
    public string? Metadata { get; set; }

    public ConcurrentDictionary<string, QueueReport> Queues { get; } = new();

    public int PublishesRefused => _publishesRefused;

    private int _publishesRefused;

    public static async Task<EmulatedSidecar> StartAsync(EmulatedSidecarOptions options)
    {
        var app = LoopbackServer.Create();
        var grpc = options.ServeGrpc ? GrpcServer() : null;
        var sidecar = new EmulatedSidecar(options, app, grpc);
        app.MapPost("/v1.0-alpha1/publish/bulk/{pubsub}/{topic}", (string topic, HttpRequest request) => sidecar.BulkPublishAsync(topic, request));
        app.MapPost("/v1.0/publish/{pubsub}/{topic}", (string topic, HttpRequest request) => sidecar.PublishAsync(topic, request));
        app.MapPost("/v1.0/bindings/{name}", (string name, HttpRequest request) => sidecar.InvokeBindingAsync(name, request));
        app.MapGet("/v1.0/healthz/outbound", () => Results.StatusCode(sidecar.OutboundHealthStatus));
        app.MapGet("/v1.0/metadata", () => sidecar.Metadata is { } metadata ? Results.Text(metadata, "application/json") : Results.NotFound());
        await app.StartAsync();
        if (grpc is not null)
        {
            grpc.MapPost("/dapr.proto.runtime.v1.Dapr/InvokeBinding", sidecar.InvokeBindingOverGrpcAsync);
            await grpc.StartAsync();
        }

        sidecar._workers.Add(Task.Run(sidecar.HandOutPendingAsync));
        return sidecar;
    }

    /// <summary>The recording mode (<see cref="EmulatedSidecarOptions.Recording"/>), for tests of what the apps and the load tool send.</summary>
    public static Task<EmulatedSidecar> StartRecordingAsync() => StartAsync(EmulatedSidecarOptions.Recording);

    /// <summary>The bulk publishes to <paramref name="queue"/> the recording mode kept.</summary>
    public IEnumerable<SidecarRequest> BulkPublishes(string queue) =>
        Requests.Where(r => r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal)
                            && r.Path.EndsWith($"/{queue}", StringComparison.Ordinal));

    /// <summary>Delivers a queue to an app, from now until the emulator is disposed.</summary>
    /// <param name="queue">The queue; with <see cref="MessagingModel.Bindings"/>, the output binding that fills the queue.</param>
    /// <param name="inputBinding">With <see cref="MessagingModel.Bindings"/>: the app's input binding on that queue.</param>
    public void Subscribe(string queue, HttpClient app, MessagingModel model, string? inputBinding = null)
    {
        var report = Queues.GetOrAdd(queue, _ => new QueueReport());
        var messages = Queue(queue);
        var workers = model switch
        {
            MessagingModel.PubSubBulk => _options.ConcurrentBulkRequests,
            MessagingModel.PubSubSingle => _options.ConcurrentSingleRequests,
            _ => _options.ConcurrentBindingRequests,
        };
        var route = model == MessagingModel.Bindings
            ? "/" + (inputBinding ?? throw new ArgumentNullException(nameof(inputBinding), "the bindings model needs the app's input binding"))
            : null;
        for (var i = 0; i < workers; i++)
        {
            _workers.Add(model switch
            {
                MessagingModel.PubSubBulk => Task.Run(() => DeliverBulksAsync(queue, app, messages, report)),
                MessagingModel.PubSubSingle => Task.Run(() => DeliverSinglesAsync(queue, app, messages, report)),
                _ => Task.Run(() => DeliverBindingsAsync(queue, route!, app, messages, report)),
            });
        }
    }

    /// <summary>Puts messages on a queue, as a publisher outside the apps would (the load tool scheduling a burst).</summary>
    public void Enqueue(string queue, IEnumerable<byte[]> payloads)
    {
        foreach (var payload in payloads)
        {
            Put(queue, payload);
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
        if (_grpc is not null)
        {
            await _grpc.DisposeAsync();
        }

        _stop.Dispose();
    }

    private Channel<Message> Queue(string queue) => _queues.GetOrAdd(queue, _ => Channel.CreateUnbounded<Message>());

    private void Put(string queue, byte[] payload)
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
            Queue(queue).Writer.TryWrite(new Message(origin, payload));
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

    private void Redeliver(string queue, Message message) =>
        _ = Task.Delay(_options.RetryInterval, _stop.Token)
            .ContinueWith(_ => Queue(queue).Writer.TryWrite(message), TaskScheduler.Default);

    private long ContextEnd(Message message) => message.ReadAt + (long)(_options.ProcessingTimeout.TotalSeconds * Stopwatch.Frequency);

    /// <summary>
    /// A pub/sub message taken off its queue: read now when it is new (its context starts), or a retry; a retry whose
    /// context ended while it waited is left pending instead.
    /// </summary>
    /// <returns>Whether to deliver it now.</returns>
    private bool Take(string queue, Message message, QueueReport report)
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

        Park(queue, message, report);
        return false;
    }

    /// <summary>A pub/sub message answered RETRY: retried within its context, then kept pending or acknowledged.</summary>
    private void RetryOrPark(string queue, Message message, QueueReport report)
    {
        var now = Stopwatch.GetTimestamp();
        var contextEnd = ContextEnd(message);
        if (now >= contextEnd)
        {
            Park(queue, message, report);
        }
        else if (_options.MaxRetries >= 0 && message.Retries >= _options.MaxRetries)
        {
            // The retries are spent while the context still runs: from 1.17 pubsub.redis acknowledges the message.
            if (Runtime.AcknowledgesSpentRetries)
            {
                report.AcknowledgeUnstored(message.Origin);
                Done();
            }
            else
            {
                Park(queue, message, report);
            }
        }
        else if (now + (long)(_options.RetryInterval.TotalSeconds * Stopwatch.Frequency) >= contextEnd)
        {
            // The context ends during the wait: the retry is cancelled, the message stays pending.
            Park(queue, message, report);
        }
        else
        {
            message.Retries++;
            Redeliver(queue, message);
        }
    }

    private void Park(string queue, Message message, QueueReport report)
    {
        report.Park();
        var pending = _pending.GetOrAdd(queue, _ => []);
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
                foreach (var (queue, pending) in _pending)
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
                        Queues[queue].HandOutAgain();
                        message.ReadAt = 0;
                        Queue(queue).Writer.TryWrite(message);
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

    private async Task<IResult> BulkPublishAsync(string queue, HttpRequest request)
    {
        var (body, recorded) = await TakeAsync(request, BulkAnswer is not null);
        if (BulkAnswer is { } answerOf)
        {
            var (status, text) = answerOf(recorded!);
            return Results.Text(text, "application/json", statusCode: status);
        }

        using var document = JsonDocument.Parse(body);
        var tooLarge = body.Length > MaxBulkPubBytesOf(request) || body.Length > MaxBulkRequestBytes;
        var failed = new List<object>();
        foreach (var entry in document.RootElement.EnumerateArray())
        {
            var entryId = entry.GetProperty("entryId").GetString()!;
            var @event = entry.GetProperty("event");
            if (tooLarge || FailEntry?.Invoke(@event) == true || Refuse())
            {
                failed.Add(new { entryId, error = tooLarge ? "the message is too large" : "chosen to fail" });
                continue;
            }

            Put(queue, PayloadOf(@event));
        }

        if (failed.Count == 0)
        {
            return Results.NoContent();
        }

        Interlocked.Add(ref _publishesRefused, failed.Count);
        return Results.Json(new { failedEntries = failed, errorCode = "ERR_PUBSUB_PUBLISH_MESSAGE" }, statusCode: 500);
    }

    /// <summary>The app's own cap on a bulk publish's bytes (<c>metadata.maxBulkPubBytes</c>), refused above as too large; none when not given.</summary>
    private static int MaxBulkPubBytesOf(HttpRequest request) =>
        int.TryParse(request.Query["metadata.maxBulkPubBytes"].ToString(), System.Globalization.CultureInfo.InvariantCulture, out var maxBytes) ? maxBytes : int.MaxValue;

    private async Task<IResult> PublishAsync(string queue, HttpRequest request)
    {
        var (body, recorded) = await TakeAsync(request, PublishAnswer is not null);
        if (PublishAnswer?.Invoke(recorded!) is { } answer)
        {
            return Results.Text(answer.Body, "application/json", statusCode: answer.Status);
        }

        if (Refuse())
        {
            Interlocked.Increment(ref _publishesRefused);
            return Results.Json(new { errorCode = "ERR_PUBSUB_PUBLISH_MESSAGE", message = "chosen to fail" }, statusCode: 500);
        }

        Put(queue, body);
        return Results.NoContent();
    }

    /// <summary>An output binding's <c>create</c>: the data goes on the binding's queue as it is.</summary>
    private async Task<IResult> InvokeBindingAsync(string name, HttpRequest request)
    {
        var (body, recorded) = await TakeAsync(request, BindingAnswer is not null);
        if (BindingAnswer?.Invoke(recorded!) is { } answer)
        {
            return Results.Text(answer.Body, "application/json", statusCode: answer.Status);
        }

        using var document = JsonDocument.Parse(body);
        var hasData = document.RootElement.TryGetProperty("data", out var data);
        if (recorded is not null)
        {
            var metadata = document.RootElement.TryGetProperty("metadata", out var given) && given.ValueKind == JsonValueKind.Object
                ? given.EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetString() ?? "", StringComparer.Ordinal)
                : [];
            var sent = hasData ? Encoding.UTF8.GetBytes(data.GetRawText()) : [];
            BindingMessages.Enqueue(new BindingMessage(name, sent, Runtime.HttpBindingMetadata(metadata, recorded.Headers)));
        }

        if (Refuse())
        {
            Interlocked.Increment(ref _publishesRefused);
            return Results.Json(new { errorCode = "ERR_INVOKE_OUTPUT_BINDING", message = "chosen to fail" }, statusCode: 500);
        }

        if (hasData)
        {
            Put(name, PayloadOf(data));
        }

        return Results.NoContent();
    }

    /// <summary>
    /// The gRPC mode's <c>InvokeBinding</c>, as daprd takes it from Dapr's SDK: the binding's metadata is what the
    /// <see cref="Runtime"/> builds from the request and from the headers the SDK's gRPC client really sent.
    /// </summary>
    private async Task InvokeBindingOverGrpcAsync(HttpContext context)
    {
        using var buffer = new MemoryStream();
        await context.Request.Body.CopyToAsync(buffer);
        // One length-prefixed message: a compression flag, four bytes of length, the protobuf.
        var frame = buffer.ToArray();
        var length = (int)BinaryPrimitives.ReadUInt32BigEndian(frame.AsSpan(1, 4));
        var request = InvokeBindingRequest.Parser.ParseFrom(frame.AsSpan(5, length));
        var headers = context.Request.Headers.ToDictionary(h => h.Key.ToLowerInvariant(), h => h.Value.ToString(), StringComparer.Ordinal);
        var data = request.Data.ToByteArray();
        if (_options.RecordRequests)
        {
            BindingMessages.Enqueue(new BindingMessage(request.Name, data, Runtime.GrpcBindingMetadata(request.Metadata, headers)));
        }

        Put(request.Name, data);
        context.Response.ContentType = "application/grpc";
        context.Response.AppendTrailer("grpc-status", "0");
        await context.Response.Body.WriteAsync(new byte[] { 0, 0, 0, 0, 0 });
    }

    /// <summary>
    /// A request's body; the request described when it is recorded or <paramref name="describe"/> asks (an answer
    /// chosen by it), then held while <see cref="Hang"/> runs.
    /// </summary>
    private async Task<(byte[] Body, SidecarRequest? Recorded)> TakeAsync(HttpRequest request, bool describe)
    {
        using var buffer = new MemoryStream();
        await request.Body.CopyToAsync(buffer);
        var body = buffer.ToArray();
        SidecarRequest? recorded = null;
        if (_options.RecordRequests || describe)
        {
            recorded = new SidecarRequest(
                request.Path.Value!,
                request.Query.ToDictionary(q => q.Key, q => q.Value.ToString()),
                request.Headers.ToDictionary(h => h.Key, h => h.Value.ToString(), StringComparer.OrdinalIgnoreCase),
                body);
            if (_options.RecordRequests)
            {
                Requests.Enqueue(recorded);
            }
        }

        if (Hang is { } hang)
        {
            await hang.WaitAsync(request.HttpContext.RequestAborted);
        }

        return (body, recorded);
    }

    /// <summary>The gRPC mode's server: HTTP/2 without TLS on a free port of 127.0.0.1, as daprd's gRPC API.</summary>
    private static WebApplication GrpcServer()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0, listen => listen.Protocols = HttpProtocols.Http2));
        builder.Logging.ClearProviders();
        return builder.Build();
    }

    private static byte[] PayloadOf(JsonElement @event) =>
        @event.ValueKind == JsonValueKind.String ? Encoding.UTF8.GetBytes(@event.GetString()!) : Encoding.UTF8.GetBytes(@event.GetRawText());

    private async Task DeliverBulksAsync(string queue, HttpClient app, Channel<Message> messages, QueueReport report)
    {
        var reader = messages.Reader;
        while (await WaitToReadAsync(reader))
        {
            var batch = new List<Message>(_options.MaxMessagesCount);
            var gatherUntil = Stopwatch.GetTimestamp() + (long)(_options.MaxAwait.TotalSeconds * Stopwatch.Frequency);
            while (batch.Count < _options.MaxMessagesCount)
            {
                if (reader.TryRead(out var message))
                {
                    if (Take(queue, message, report))
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
                await DeliverBulkAsync(queue, app, batch, report);
            }
        }
    }

    private async Task DeliverBulkAsync(string queue, HttpClient app, List<Message> batch, QueueReport report)
    {
        var entries = batch.Select(m => (EntryId: Guid.NewGuid().ToString(), Message: m)).ToList();
        // Written straight to bytes, as the sidecar's own encoder does: the emulator's cost stays small beside the apps'.
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
            json.WriteString("topic", queue);
            json.WriteString("type", "com.dapr.event.sent.bulk");
            json.WriteEndObject();
        });
        var (status, answer) = await PostAsync(app, $"/{queue}-bulk", body, "application/json", report);
        if (status == 404)
        {
            entries.ForEach(e => Settle(queue, e.Message, "DROP", report, MessagingModel.PubSubBulk));
            return;
        }

        if (status is not (>= 200 and < 300))
        {
            report.RedeliverWhole();
            entries.ForEach(e => Settle(queue, e.Message, "RETRY", report, MessagingModel.PubSubBulk));
            return;
        }

        var statuses = ReadStatuses(answer);
        entries.ForEach(e => Settle(queue, e.Message, statuses.GetValueOrDefault(e.EntryId, "RETRY"), report, MessagingModel.PubSubBulk));
    }

    private async Task DeliverSinglesAsync(string queue, HttpClient app, Channel<Message> messages, QueueReport report)
    {
        while (await WaitToReadAsync(messages.Reader))
        {
            if (!messages.Reader.TryRead(out var message) || !Take(queue, message, report))
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
                json.WriteString("topic", queue);
                json.WriteString("type", "com.dapr.event.sent");
                json.WriteEndObject();
            });
            var (status, answer) = await PostAsync(app, $"/{queue}-single", body, "application/cloudevents+json", report);
            var outcome = status switch
            {
                404 => "DROP",
                >= 200 and < 300 when string.IsNullOrWhiteSpace(answer) => "SUCCESS",
                >= 200 and < 300 => ReadStatus(answer),
                _ => "RETRY",
            };
            Settle(queue, message, outcome, report, MessagingModel.PubSubSingle);
        }
    }

    /// <summary>As the RabbitMQ input binding delivers: the raw body under a message id; a 400 dead-letters it.</summary>
    private async Task DeliverBindingsAsync(string queue, string route, HttpClient app, Channel<Message> messages, QueueReport report)
    {
        while (await WaitToReadAsync(messages.Reader))
        {
            if (!messages.Reader.TryRead(out var message))
            {
                continue;
            }

            var (status, _) = await PostAsync(app, route, message.Payload, "application/json", report, ("Messageid", message.Origin));
            Settle(queue, message, status switch
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
        HttpClient app, string route, ReadOnlyMemory<byte> body, string contentType, QueueReport report, (string Name, string Value)? header = null)
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
            report.Answered(clock.Elapsed);
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

    private void Settle(string queue, Message message, string status, QueueReport report, MessagingModel model)
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
                    Redeliver(queue, message);
                }
                else
                {
                    RetryOrPark(queue, message, report);
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
