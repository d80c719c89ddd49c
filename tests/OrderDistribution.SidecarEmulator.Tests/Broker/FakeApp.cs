using System.Collections.Concurrent;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using OrderDistribution.SidecarEmulator.Hosting;

namespace OrderDistribution.SidecarEmulator.Tests.Broker;

/// <summary>An app on 127.0.0.1 that answers each delivery on any route as <see cref="Answer"/> says.</summary>
internal sealed class FakeApp : IAsyncDisposable
{
    private readonly WebApplication _app;

    private FakeApp(WebApplication app) => _app = app;

    /// <summary>The answer to the n-th delivery (from 1) of a route: a status and a JSON body, or none.</summary>
    public Func<int, string, (int Status, string? Body)> Answer { get; set; } = (_, _) => (200, null);

    /// <summary>The bodies delivered, in order.</summary>
    public ConcurrentQueue<string> Bodies { get; } = new();

    public HttpClient Client { get; private set; } = null!;

    public static async Task<FakeApp> StartAsync()
    {
        var app = LoopbackServer.Create();
        var fake = new FakeApp(app);
        var count = 0;
        app.MapPost("/{**route}", async (HttpRequest request) =>
        {
            using var reader = new StreamReader(request.Body);
            var body = await reader.ReadToEndAsync();
            fake.Bodies.Enqueue(body);
            var (status, answer) = fake.Answer(Interlocked.Increment(ref count), body);
            return answer is null ? Results.StatusCode(status)
                : Results.Text(answer, "application/json", statusCode: status);
        });
        await app.StartAsync();
        fake.Client = new HttpClient { BaseAddress = LoopbackServer.AddressOf(app) };
        return fake;
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await _app.DisposeAsync();
    }
}
