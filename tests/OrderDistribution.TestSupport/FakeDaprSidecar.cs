using System.Collections.Concurrent;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace OrderDistribution.TestSupport;

/// <summary>
/// The sidecar's HTTP API for publishing (bulk publish, publish, output bindings) on 127.0.0.1, recording
/// every request, and each output binding call as the binding gets it from the <see cref="Runtime"/> chosen. It can fail chosen entries, and refuse bulk requests over a byte cap the way Azure
/// Service Bus does ("the message is too large").
/// </summary>
public sealed class FakeDaprSidecar : IAsyncDisposable
{
    private readonly WebApplication _app;

    private FakeDaprSidecar(WebApplication app) => _app = app;

    public ConcurrentQueue<SidecarRequest> Requests { get; } = new();

    /// <summary>The runtime whose way of building a binding's metadata <see cref="BindingMessages"/> records.</summary>
    public DaprRuntimeProfile Runtime { get; set; } = DaprRuntimeProfile.Dapr114;

    /// <summary>Each output binding call, as the binding (and so the broker's message) got it.</summary>
    public ConcurrentQueue<BindingMessage> BindingMessages { get; } = new();

    /// <summary>When set, an output binding call is answered with this status and body instead.</summary>
    public Func<SidecarRequest, (int Status, string Body)?>? BindingAnswer { get; set; }

    /// <summary>When set, a single publish is answered with this status and body instead.</summary>
    public Func<SidecarRequest, (int Status, string Body)?>? PublishAnswer { get; set; }

    /// <summary>Entries of a bulk publish for which this answers true are reported failed.</summary>
    public Func<JsonElement, bool> FailEntry { get; set; } = _ => false;

    /// <summary>A bulk publish whose body is larger than this fails as a whole.</summary>
    public int? MaxBulkRequestBytes { get; set; }

    /// <summary>When set, a bulk publish is answered with this status and body instead, whatever it holds.</summary>
    public Func<SidecarRequest, (int Status, string Body)>? BulkAnswer { get; set; }

    /// <summary>When set, every publish waits on it (or until the caller gives up) before it is answered.</summary>
    public Task? Hang { get; set; }

    /// <summary>What <c>GET /v1.0/healthz/outbound</c> answers.</summary>
    public int OutboundHealthStatus { get; set; } = StatusCodes.Status204NoContent;

    /// <summary>What <c>GET /v1.0/metadata</c> answers (the sidecar's components and subscriptions); 404 when null.</summary>
    public string? Metadata { get; set; }

    public Uri Address => LoopbackServer.AddressOf(_app);

    public IEnumerable<SidecarRequest> BulkPublishes(string topic) =>
        Requests.Where(r => r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal)
                            && r.Path.EndsWith($"/{topic}", StringComparison.Ordinal));

    public static async Task<FakeDaprSidecar> StartAsync()
    {
        var app = LoopbackServer.Create();
        var sidecar = new FakeDaprSidecar(app);
        app.MapPost("/v1.0-alpha1/publish/bulk/{pubsub}/{topic}", sidecar.BulkPublishAsync);
        app.MapPost("/v1.0/publish/{pubsub}/{topic}", sidecar.PublishAsync);
        app.MapPost("/v1.0/bindings/{name}", sidecar.InvokeBindingAsync);
        app.MapGet("/v1.0/healthz/outbound", () => Results.StatusCode(sidecar.OutboundHealthStatus));
        app.MapGet("/v1.0/metadata", () => sidecar.Metadata is { } metadata ? Results.Text(metadata, "application/json") : Results.NotFound());
        await app.StartAsync();
        return sidecar;
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();

    private async Task<IResult> PublishAsync(HttpRequest request)
    {
        var recorded = await Record(request);
        return PublishAnswer?.Invoke(recorded) is { } answer
            ? Results.Text(answer.Body, "application/json", statusCode: answer.Status)
            : Results.NoContent();
    }

    private async Task<IResult> InvokeBindingAsync(string name, HttpRequest request)
    {
        var recorded = await Record(request);
        if (BindingAnswer?.Invoke(recorded) is { } answer)
        {
            return Results.Text(answer.Body, "application/json", statusCode: answer.Status);
        }

        var body = recorded.Json;
        var metadata = body.TryGetProperty("metadata", out var given) && given.ValueKind == JsonValueKind.Object
            ? given.EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetString() ?? "", StringComparer.Ordinal)
            : [];
        var data = body.TryGetProperty("data", out var value) ? System.Text.Encoding.UTF8.GetBytes(value.GetRawText()) : [];
        BindingMessages.Enqueue(new BindingMessage(name, data, Runtime.HttpBindingMetadata(metadata, recorded.Headers)));
        return Results.NoContent();
    }

    private async Task<IResult> BulkPublishAsync(HttpRequest request)
    {
        var recorded = await Record(request);
        if (BulkAnswer?.Invoke(recorded) is { } answer)
        {
            return Results.Text(answer.Body, "application/json", statusCode: answer.Status);
        }

        var entries = recorded.Json.EnumerateArray().ToList();
        var failed = recorded.Body.Length > MaxBulkRequestBytes
            ? entries.Select(e => (e, "the message is too large")).ToList()
            : entries.Where(e => FailEntry(e.GetProperty("event"))).Select(e => (e, "chosen to fail")).ToList();
        if (failed.Count == 0)
        {
            return Results.NoContent();
        }

        return Results.Json(new
        {
            failedEntries = failed.Select(f => new { entryId = f.e.GetProperty("entryId").GetString(), error = f.Item2 }),
            errorCode = "ERR_PUBSUB_PUBLISH_MESSAGE",
        }, statusCode: StatusCodes.Status500InternalServerError);
    }

    private async Task<SidecarRequest> Record(HttpRequest request)
    {
        using var buffer = new MemoryStream();
        await request.Body.CopyToAsync(buffer);
        var recorded = new SidecarRequest(
            request.Path.Value!,
            request.Query.ToDictionary(q => q.Key, q => q.Value.ToString()),
            request.Headers.ToDictionary(h => h.Key, h => h.Value.ToString(), StringComparer.OrdinalIgnoreCase),
            buffer.ToArray());
        Requests.Enqueue(recorded);
        if (Hang is { } hang)
        {
            await hang.WaitAsync(request.HttpContext.RequestAborted);
        }

        return recorded;
    }
}
