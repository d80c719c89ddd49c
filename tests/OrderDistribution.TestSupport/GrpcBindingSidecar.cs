using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;
using InvokeBindingRequest = Dapr.Client.Autogen.Grpc.v1.InvokeBindingRequest;

namespace OrderDistribution.TestSupport;

/// <summary>
/// The sidecar's gRPC <c>InvokeBinding</c> on 127.0.0.1 (HTTP/2), for Dapr's own SDK: it takes the call as daprd does and
/// records the binding's metadata as the chosen <see cref="DaprRuntimeProfile"/> builds it from the request and from
/// the headers the SDK's gRPC client really sent. It shows what the gRPC way puts on a broker message.
/// </summary>
public sealed class GrpcBindingSidecar : IAsyncDisposable
{
    private readonly WebApplication _app;

    private GrpcBindingSidecar(WebApplication app, DaprRuntimeProfile runtime)
    {
        _app = app;
        Runtime = runtime;
    }

    public DaprRuntimeProfile Runtime { get; }

    public ConcurrentQueue<BindingMessage> BindingMessages { get; } = new();

    public Uri Address => LoopbackServer.AddressOf(_app);

    public static async Task<GrpcBindingSidecar> StartAsync(DaprRuntimeProfile runtime)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0, listen => listen.Protocols = HttpProtocols.Http2));
        builder.Logging.ClearProviders();
        var app = builder.Build();
        var sidecar = new GrpcBindingSidecar(app, runtime);
        app.MapPost("/dapr.proto.runtime.v1.Dapr/InvokeBinding", sidecar.InvokeBindingAsync);
        await app.StartAsync();
        return sidecar;
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();

    private async Task InvokeBindingAsync(HttpContext context)
    {
        using var buffer = new MemoryStream();
        await context.Request.Body.CopyToAsync(buffer);
        // One length-prefixed message: a compression flag, four bytes of length, the protobuf.
        var frame = buffer.ToArray();
        var length = (int)BinaryPrimitives.ReadUInt32BigEndian(frame.AsSpan(1, 4));
        var request = InvokeBindingRequest.Parser.ParseFrom(frame.AsSpan(5, length));
        var headers = context.Request.Headers.ToDictionary(h => h.Key.ToLowerInvariant(), h => h.Value.ToString(), StringComparer.Ordinal);
        BindingMessages.Enqueue(new BindingMessage(
            request.Name, request.Data.ToByteArray(), Runtime.GrpcBindingMetadata(request.Metadata, headers)));

        context.Response.ContentType = "application/grpc";
        context.Response.AppendTrailer("grpc-status", "0");
        await context.Response.Body.WriteAsync(new byte[] { 0, 0, 0, 0, 0 });
    }
}
