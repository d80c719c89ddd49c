using System.Collections.Concurrent;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;

namespace OrderDistribution.TestSupport;

/// <summary>
/// A stand-in blob endpoint on 127.0.0.1 that records each call as "METHOD name" (the path's last segment) and
/// answers it as the function it is started with says: for what real storage cannot be made to do on cue.
/// </summary>
public sealed class BlobEndpoint : IAsyncDisposable
{
    private readonly WebApplication _app;

    private BlobEndpoint(WebApplication app) => _app = app;

    public ConcurrentQueue<string> Calls { get; } = new();

    public int Port => LoopbackServer.AddressOf(_app).Port;

    public string ConnectionString => Azurite.ConnectionStringFor(Port);

    public static async Task<BlobEndpoint> StartAsync(Func<HttpContext, Task> answer)
    {
        var app = LoopbackServer.Create();
        var endpoint = new BlobEndpoint(app);
        app.Run(context =>
        {
            endpoint.Calls.Enqueue($"{context.Request.Method} {context.Request.Path.Value!.Split('/').Last()}");
            context.Response.Headers["x-ms-request-id"] = Guid.NewGuid().ToString();
            return answer(context);
        });
        await app.StartAsync();
        return endpoint;
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();

    /// <summary>A success with what the SDK reads of one: the blob's or container's ETag and time.</summary>
    public static Task Ok(HttpContext context, int status = StatusCodes.Status200OK)
    {
        context.Response.StatusCode = status;
        context.Response.Headers.ETag = "\"0x1\"";
        context.Response.Headers.LastModified = DateTimeOffset.UtcNow.ToString("R");
        return Task.CompletedTask;
    }

    /// <summary>A failure as storage words it: the status, its error code in header and body.</summary>
    public static Task Error(HttpContext context, int status, string code, string message)
    {
        context.Response.StatusCode = status;
        context.Response.Headers["x-ms-error-code"] = code;
        context.Response.ContentType = "application/xml";
        return context.Response.WriteAsync("<?xml version=\"1.0\" encoding=\"utf-8\"?>" +
            $"<Error><Code>{code}</Code><Message>{message}</Message></Error>");
    }
}
