using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.Logging;
using OrderDistribution.Distributor;
using OrderDistribution.Receiver;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// One app of a run file hosted in the test process on a real port (Kestrel), with the settings <c>dapr run</c>
/// gives it: the run file's env, its app directory as content root, and where its sidecar is. What it logs goes to
/// <see cref="Logs"/>, across restarts.
/// </summary>
public sealed class InProcessApp : IAsyncDisposable
{
    private readonly string _contentRoot;
    private readonly IReadOnlyDictionary<string, string> _settings;
    private IDisposable? _host;

    private InProcessApp(string appId, string contentRoot, int port, IReadOnlyDictionary<string, string> settings)
    {
        AppId = appId;
        _contentRoot = contentRoot;
        Port = port;
        _settings = settings;
    }

    public string AppId { get; }

    public int Port { get; }

    public LogRecorder Logs { get; } = new();

    public Uri Address => new($"http://127.0.0.1:{Port}");

    /// <summary>The entries it logged as dropped (once each: a dropped entry does not come back).</summary>
    public int DroppedEntries =>
        Logs.Lines.Count(l => l.Level == LogLevel.Warning && l.Message.StartsWith("Dropped entry ", StringComparison.Ordinal));

    /// <param name="settings">Configuration keys as the app reads them (env names with __ or :).</param>
    public static InProcessApp Start(string appId, string contentRoot, int port, IReadOnlyDictionary<string, string> settings)
    {
        var app = new InProcessApp(appId, contentRoot, port, settings);
        app.Start();
        return app;
    }

    public void Start()
    {
        if (_host is not null)
        {
            throw new InvalidOperationException($"{AppId} is already running.");
        }

        // The run file's app directory says which app it is: both receivers run the receiver's project.
        _host = Path.GetFileName(Path.TrimEndingDirectorySeparator(_contentRoot)) switch
        {
            "OrderDistribution.Distributor" => Host(new WebApplicationFactory<OrderRouter>()),
            "OrderDistribution.Receiver" => Host(new WebApplicationFactory<BlobOrderStore>()),
            var other => throw new InvalidOperationException($"The run file names an app directory no in-process app is known for: {other}"),
        };
    }

    /// <summary>Stops the app as a crash would leave its sidecar: nothing answers on its port until <see cref="Start"/>.</summary>
    public void Stop()
    {
        _host?.Dispose();
        _host = null;
    }

    public ValueTask DisposeAsync()
    {
        Stop();
        return ValueTask.CompletedTask;
    }

    private WebApplicationFactory<T> Host<T>(WebApplicationFactory<T> factory) where T : class
    {
        var configured = factory.WithWebHostBuilder(builder =>
        {
            builder.UseContentRoot(_contentRoot);
            foreach (var (key, value) in _settings)
            {
                if (key == "ASPNETCORE_ENVIRONMENT")
                {
                    builder.UseEnvironment(value);
                }
                else
                {
                    builder.UseSetting(key.Replace("__", ":", StringComparison.Ordinal), value);
                }
            }

            builder.ConfigureLogging(logging => logging.ClearProviders().AddProvider(Logs));
        });
        // Both loopbacks: a sidecar container reaches the app through a tunnel that may connect to either.
        configured.UseKestrel(kestrel => kestrel.ListenLocalhost(Port));
        configured.StartServer();
        return configured;
    }
}
