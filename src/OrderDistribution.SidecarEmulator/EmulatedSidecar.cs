using System.Collections.Concurrent;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using OrderDistribution.Messaging;
using OrderDistribution.SidecarEmulator.Api;
using OrderDistribution.SidecarEmulator.Broker;
using OrderDistribution.SidecarEmulator.Hosting;

namespace OrderDistribution.SidecarEmulator;

/// <summary>
/// A Dapr sidecar and its broker for in-process runs, behaving as the real ones do (docs/dapr-sidecar.md, "What the
/// sidecar answers, and what it does on its own"), in three parts a reader can take one at a time: its API
/// (<see cref="SidecarApi"/>: the apps' publishes and output binding calls, failing a chosen share of them as the
/// sidecar answers a failed publish), its broker (<see cref="EmulatedBroker"/>: one queue per topic or output binding,
/// pending messages and redelivery per runtime), and one delivery per model (<see cref="BulkDelivery"/>,
/// <see cref="SingleDelivery"/>, <see cref="BindingDelivery"/>). An attempt still running when its context ends is
/// not cut off: the apps answer within their deadline, which the shipped processingTimeout outlasts.
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
    private readonly EmulatedBroker _broker;
    private readonly SidecarApi _api;
    private readonly List<Task> _workers = [];

    private EmulatedSidecar(EmulatedSidecarOptions options, WebApplication app, WebApplication? grpc)
    {
        _options = options;
        _app = app;
        _grpc = grpc;
        _broker = new EmulatedBroker(options);
        _api = new SidecarApi(this, _broker, options);
        Metadata = options.Metadata;
    }

    /// <summary>The sidecar's HTTP API (daprd's 3500).</summary>
    public Uri Address => LoopbackServer.AddressOf(_app);

    /// <summary>The sidecar's gRPC API (daprd's 50001), in the gRPC mode only.</summary>
    public Uri GrpcAddress => LoopbackServer.AddressOf(
        _grpc ?? throw new InvalidOperationException("The emulator serves gRPC only with ServeGrpc."));

    /// <summary>Whose sidecar this is; a test may change it between calls.</summary>
    public DaprRuntimeProfile Runtime
    {
        get => _broker.Runtime;
        set => _broker.Runtime = value;
    }

    /// <summary>Every request on the sidecar's HTTP API, in the recording mode.</summary>
    public ConcurrentQueue<SidecarRequest> Requests { get; } = new();

    /// <summary>
    /// Each output binding call, as the binding (and so the broker's message) got it, in the recording mode.
    /// </summary>
    public ConcurrentQueue<BindingMessage> BindingMessages { get; } = new();

    /// <summary>When set, an output binding call is answered with this status and body instead.</summary>
    public Func<SidecarRequest, (int Status, string Body)?>? BindingAnswer { get; set; }

    /// <summary>When set, a single publish is answered with this status and body instead.</summary>
    public Func<SidecarRequest, (int Status, string Body)?>? PublishAnswer { get; set; }

    /// <summary>When set, a bulk publish is answered with this status and body instead, whatever it holds.</summary>
    public Func<SidecarRequest, (int Status, string Body)>? BulkAnswer { get; set; }

    /// <summary>Entries of a bulk publish (by their event) for which this answers true are reported failed.</summary>
    public Func<JsonElement, bool>? FailEntry { get; set; }

    /// <summary>
    /// A bulk publish whose body is larger than this fails as a whole, as Azure Service Bus refuses it ("the message
    /// is too large").
    /// </summary>
    public int? MaxBulkRequestBytes { get; set; }

    /// <summary>
    /// When set, every publish and binding call waits on it (or until the caller gives up) before it is answered.
    /// </summary>
    public Task? Hang { get; set; }

    /// <summary>What <c>GET /v1.0/healthz/outbound</c> answers.</summary>
    public int OutboundHealthStatus { get; set; } = StatusCodes.Status204NoContent;

    /// <summary>
    /// What <c>GET /v1.0/metadata</c> answers (the sidecar's components and subscriptions); 404 when null.
    /// </summary>
    public string? Metadata { get; set; }

    /// <summary>What happened to the messages of each subscribed queue.</summary>
    public ConcurrentDictionary<string, QueueReport> Queues => _broker.Reports;

    public int PublishesRefused => _api.PublishesRefused;

    public static async Task<EmulatedSidecar> StartAsync(EmulatedSidecarOptions options)
    {
        var app = LoopbackServer.Create();
        var grpc = options.ServeGrpc ? SidecarApi.GrpcServer() : null;
        var sidecar = new EmulatedSidecar(options, app, grpc);
        sidecar._api.MapHttp(app);
        await app.StartAsync();
        if (grpc is not null)
        {
            sidecar._api.MapGrpc(grpc);
            await grpc.StartAsync();
        }

        sidecar._workers.Add(Task.Run(sidecar._broker.HandOutPendingAsync));
        return sidecar;
    }

    /// <summary>
    /// The recording mode (<see cref="EmulatedSidecarOptions.Recording"/>), for tests of what the apps and the load
    /// tool send.
    /// </summary>
    public static Task<EmulatedSidecar> StartRecordingAsync() => StartAsync(EmulatedSidecarOptions.Recording);

    /// <summary>The bulk publishes to <paramref name="queue"/> the recording mode kept.</summary>
    public IEnumerable<SidecarRequest> BulkPublishes(string queue) =>
        Requests.Where(r => r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal)
                            && r.Path.EndsWith($"/{queue}", StringComparison.Ordinal));

    /// <summary>Delivers a queue to an app, from now until the emulator is disposed.</summary>
    /// <param name="queue">The queue; with <see cref="MessagingModel.Bindings"/>, the output binding that fills the
    /// queue.</param>
    /// <param name="inputBinding">With <see cref="MessagingModel.Bindings"/>: the app's input binding on that
    /// queue.</param>
    /// <param name="deadLetterTopic">A pub/sub subscription's dead-letter topic: where a message answered DROP goes.
    /// Without one a DROP is discarded, as daprd discards it.</param>
    public void Subscribe(string queue, HttpClient app, MessagingModel model, string? inputBinding = null,
        string? deadLetterTopic = null)
    {
        var report = Queues.GetOrAdd(queue, _ => new QueueReport());
        var (workers, delivery) = model switch
        {
            MessagingModel.PubSubBulk => (
                _options.ConcurrentBulkRequests,
                (Delivery)new BulkDelivery(_broker, queue, app, report, _options, deadLetterTopic)),
            MessagingModel.PubSubSingle => (
                _options.ConcurrentSingleRequests,
                new SingleDelivery(_broker, queue, app, report, deadLetterTopic)),
            MessagingModel.Bindings => (
                _options.ConcurrentBindingRequests,
                new BindingDelivery(_broker, queue, app, report, inputBinding ?? throw new ArgumentNullException(
                    nameof(inputBinding), "the bindings model needs the app's input binding"))),
            _ => throw new ArgumentOutOfRangeException(nameof(model), model, "No delivery for this messaging model."),
        };
        for (var i = 0; i < workers; i++)
        {
            _workers.Add(Task.Run(delivery.RunAsync));
        }
    }

    /// <summary>
    /// Makes <paramref name="queue"/> a queue nobody is delivered from, whose messages stay for a person to read (a
    /// dead-letter queue): what is published to it is kept, and never counts as outstanding.
    /// </summary>
    /// <returns>The messages on it, as they come.</returns>
    public IReadOnlyCollection<byte[]> Keep(string queue) => _broker.Keep(queue);

    /// <summary>
    /// Puts messages on a queue, as a publisher outside the apps would (the load tool scheduling a burst).
    /// </summary>
    public void Enqueue(string queue, IEnumerable<byte[]> payloads)
    {
        foreach (var payload in payloads)
        {
            _broker.Put(queue, payload);
        }
    }

    /// <summary>The messages of <paramref name="queue"/> left pending in the broker now, as XPENDING counts those
    /// whose delivery ended unanswered.</summary>
    public int PendingIn(string queue) => _broker.PendingCount(queue);

    /// <summary>
    /// Waits until every message put on any queue is done (SUCCESS or DROP), or the time is up; burst after burst.
    /// </summary>
    /// <returns>False when messages were still outstanding at the timeout.</returns>
    public Task<bool> WaitUntilQuietAsync(TimeSpan timeout) => _broker.WaitUntilQuietAsync(timeout);

    public async ValueTask DisposeAsync()
    {
        await _broker.StopAsync();
        await Task.WhenAll(_workers.Select(w => w.ContinueWith(_ => { }, TaskScheduler.Default)));
        await _app.DisposeAsync();
        if (_grpc is not null)
        {
            await _grpc.DisposeAsync();
        }

        _broker.Dispose();
    }
}
