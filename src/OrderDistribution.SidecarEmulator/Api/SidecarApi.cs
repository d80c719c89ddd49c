using System.Buffers.Binary;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;
using OrderDistribution.SidecarEmulator.Broker;
using OrderDistribution.SidecarEmulator.Hosting;
using InvokeBindingRequest = Dapr.Client.Autogen.Grpc.v1.InvokeBindingRequest;

namespace OrderDistribution.SidecarEmulator.Api;

/// <summary>
/// The emulator's sidecar API, as daprd serves it to the apps: bulk and single publishes and output binding calls on
/// HTTP, <c>InvokeBinding</c> on gRPC, outbound health and metadata. Each call is recorded and answered through the
/// <see cref="EmulatedSidecar"/>'s fault hooks first; what it publishes goes on the <see cref="EmulatedBroker"/>.
/// </summary>
internal sealed class SidecarApi(EmulatedSidecar sidecar, EmulatedBroker broker, EmulatedSidecarOptions options)
{
    private readonly Random _random = new(options.Seed);
    private int _publishesRefused;

    /// <summary>
    /// Publishes and binding calls failed by <see cref="EmulatedSidecarOptions.PublishFailureRate"/> or a hook.
    /// </summary>
    public int PublishesRefused => _publishesRefused;

    public void MapHttp(WebApplication app)
    {
        app.MapPost("/v1.0-alpha1/publish/bulk/{pubsub}/{topic}", (string topic, HttpRequest request) =>
            BulkPublishAsync(topic, request));
        app.MapPost("/v1.0/publish/{pubsub}/{topic}", (string topic, HttpRequest request) =>
            PublishAsync(topic, request));
        app.MapPost("/v1.0/bindings/{name}", (string name, HttpRequest request) => InvokeBindingAsync(name, request));
        app.MapGet("/v1.0/healthz/outbound", () => Results.StatusCode(sidecar.OutboundHealthStatus));
        app.MapGet("/v1.0/metadata", () => sidecar.Metadata is { } metadata
            ? Results.Text(metadata, "application/json")
            : Results.NotFound());
    }

    public void MapGrpc(WebApplication grpc) =>
        grpc.MapPost("/dapr.proto.runtime.v1.Dapr/InvokeBinding", InvokeBindingOverGrpcAsync);

    /// <summary>The gRPC mode's server: HTTP/2 without TLS on a free port of 127.0.0.1, as daprd's gRPC API.</summary>
    public static WebApplication GrpcServer()
    {
        var builder = WebApplication.CreateSlimBuilder(LoopbackServer.ReadSettingsOnce);
        builder.WebHost.ConfigureKestrel(kestrel =>
            kestrel.Listen(IPAddress.Loopback, 0, listen => listen.Protocols = HttpProtocols.Http2));
        builder.Logging.ClearProviders();
        return builder.Build();
    }

    private async Task<IResult> BulkPublishAsync(string queue, HttpRequest request)
    {
        var (body, recorded) = await TakeAsync(request, sidecar.BulkAnswer is not null);
        if (sidecar.BulkAnswer is { } answerOf)
        {
            var (status, text) = answerOf(recorded!);
            return Results.Text(text, "application/json", statusCode: status);
        }

        using var document = JsonDocument.Parse(body);
        var tooLarge = body.Length > MaxBulkPubBytesOf(request) || body.Length > sidecar.MaxBulkRequestBytes;
        var failed = new List<object>();
        foreach (var entry in document.RootElement.EnumerateArray())
        {
            var entryId = entry.GetProperty("entryId").GetString()!;
            var @event = entry.GetProperty("event");
            if (tooLarge || sidecar.FailEntry?.Invoke(@event) == true || Refuse())
            {
                failed.Add(new { entryId, error = tooLarge ? "the message is too large" : "chosen to fail" });
                continue;
            }

            broker.Put(queue, PayloadOf(@event));
        }

        if (failed.Count == 0)
        {
            return Results.NoContent();
        }

        Interlocked.Add(ref _publishesRefused, failed.Count);
        return Results.Json(
            new { failedEntries = failed, errorCode = "ERR_PUBSUB_PUBLISH_MESSAGE" }, statusCode: 500);
    }

    /// <summary>
    /// The app's own cap on a bulk publish's bytes (<c>metadata.maxBulkPubBytes</c>); none when not given.
    /// </summary>
    private static int MaxBulkPubBytesOf(HttpRequest request) =>
        int.TryParse(request.Query["metadata.maxBulkPubBytes"].ToString(), CultureInfo.InvariantCulture, out var max)
            ? max
            : int.MaxValue;

    private async Task<IResult> PublishAsync(string queue, HttpRequest request)
    {
        var (body, recorded) = await TakeAsync(request, sidecar.PublishAnswer is not null);
        if (sidecar.PublishAnswer?.Invoke(recorded!) is { } answer)
        {
            return Results.Text(answer.Body, "application/json", statusCode: answer.Status);
        }

        if (Refuse())
        {
            return Refused("ERR_PUBSUB_PUBLISH_MESSAGE");
        }

        broker.Put(queue, body);
        return Results.NoContent();
    }

    /// <summary>An output binding's <c>create</c>: the data goes on the binding's queue as it is.</summary>
    private async Task<IResult> InvokeBindingAsync(string name, HttpRequest request)
    {
        var (body, recorded) = await TakeAsync(request, sidecar.BindingAnswer is not null);
        if (sidecar.BindingAnswer?.Invoke(recorded!) is { } answer)
        {
            return Results.Text(answer.Body, "application/json", statusCode: answer.Status);
        }

        using var document = JsonDocument.Parse(body);
        var hasData = document.RootElement.TryGetProperty("data", out var data);
        if (recorded is not null)
        {
            var metadata = document.RootElement.TryGetProperty("metadata", out var given)
                           && given.ValueKind == JsonValueKind.Object
                ? given.EnumerateObject().ToDictionary(p => p.Name, p =>
                    p.Value.GetString() ?? "", StringComparer.Ordinal)
                : [];
            var sent = hasData ? Encoding.UTF8.GetBytes(data.GetRawText()) : [];
            sidecar.BindingMessages.Enqueue(
                new BindingMessage(name, sent, broker.Runtime.HttpBindingMetadata(metadata, recorded.Headers)));
        }

        if (Refuse())
        {
            return Refused("ERR_INVOKE_OUTPUT_BINDING");
        }

        if (hasData)
        {
            broker.Put(name, PayloadOf(data));
        }

        return Results.NoContent();
    }

    /// <summary>
    /// The gRPC mode's <c>InvokeBinding</c>, as daprd takes it from Dapr's SDK: the binding's metadata is what the
    /// runtime builds from the request and from the headers the SDK's gRPC client really sent.
    /// </summary>
    private async Task InvokeBindingOverGrpcAsync(HttpContext context)
    {
        using var buffer = new MemoryStream();
        await context.Request.Body.CopyToAsync(buffer);
        // One length-prefixed message: a compression flag, four bytes of length, the protobuf.
        var frame = buffer.ToArray();
        var length = (int)BinaryPrimitives.ReadUInt32BigEndian(frame.AsSpan(1, 4));
        var request = InvokeBindingRequest.Parser.ParseFrom(frame.AsSpan(5, length));
        var headers = context.Request.Headers
            .ToDictionary(h => h.Key.ToLowerInvariant(), h => h.Value.ToString(), StringComparer.Ordinal);
        var data = request.Data.ToByteArray();
        if (options.RecordRequests)
        {
            sidecar.BindingMessages.Enqueue(
                new BindingMessage(request.Name, data, broker.Runtime.GrpcBindingMetadata(request.Metadata, headers)));
        }

        broker.Put(request.Name, data);
        context.Response.ContentType = "application/grpc";
        context.Response.AppendTrailer("grpc-status", "0");
        await context.Response.Body.WriteAsync(new byte[] { 0, 0, 0, 0, 0 });
    }

    /// <summary>
    /// A request's body; the request described when it is recorded or <paramref name="describe"/> asks (an answer
    /// chosen by it), then held while <see cref="EmulatedSidecar.Hang"/> runs.
    /// </summary>
    private async Task<(byte[] Body, SidecarRequest? Recorded)> TakeAsync(HttpRequest request, bool describe)
    {
        using var buffer = new MemoryStream();
        await request.Body.CopyToAsync(buffer);
        var body = buffer.ToArray();
        SidecarRequest? recorded = null;
        if (options.RecordRequests || describe)
        {
            recorded = new SidecarRequest(
                request.Path.Value!,
                request.Query.ToDictionary(q => q.Key, q => q.Value.ToString()),
                request.Headers.ToDictionary(h => h.Key, h => h.Value.ToString(), StringComparer.OrdinalIgnoreCase),
                body);
            if (options.RecordRequests)
            {
                sidecar.Requests.Enqueue(recorded);
            }
        }

        if (sidecar.Hang is { } hang)
        {
            await hang.WaitAsync(request.HttpContext.RequestAborted);
        }

        return (body, recorded);
    }

    private bool Refuse()
    {
        lock (_random)
        {
            return _random.NextDouble() < options.PublishFailureRate;
        }
    }

    /// <summary>A call refused as daprd answers a failed publish or binding call.</summary>
    private IResult Refused(string errorCode)
    {
        Interlocked.Increment(ref _publishesRefused);
        return Results.Json(new { errorCode, message = "chosen to fail" }, statusCode: 500);
    }

    private static byte[] PayloadOf(JsonElement @event) => @event.ValueKind == JsonValueKind.String
        ? Encoding.UTF8.GetBytes(@event.GetString()!)
        : Encoding.UTF8.GetBytes(@event.GetRawText());
}
