using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// One app of a run file hosted in the test process on a real port, started by the emulator's <see cref="AppHost"/>
/// beside a real daprd, with the settings <c>dapr run</c> gives it: the run file's env, its app directory as content
/// root, and where its sidecar is. What it logs goes to <see cref="Logs"/>, across restarts.
/// </summary>
public sealed class InProcessApp : IAsyncDisposable
{
    private readonly string _member;
    private readonly AppHostOptions _options;
    private WebApplication? _host;

    private InProcessApp(string appId, string member, int port, AppHostOptions options)
    {
        AppId = appId;
        _member = member;
        Port = port;
        _options = options;
    }

    public string AppId { get; }

    public int Port { get; }

    public LogRecorder Logs { get; } = new();

    public Uri Address => new($"http://127.0.0.1:{Port}");

    /// <summary>The entries it logged as dropped (once each: an entry kept on the dead-letter queue does not come
    /// back).</summary>
    public int DroppedEntries =>
        Logs.Lines.Count(l => l.Level == LogLevel.Warning
            && l.Message.StartsWith("Dropped entry ", StringComparison.Ordinal));

    /// <param name="settings">Configuration keys as the app reads them (env names with __ or :), DAPR_HTTP_ENDPOINT
    /// among them.</param>
    public static async Task<InProcessApp> StartAsync(string appId, string contentRoot, int port,
        IReadOnlyDictionary<string, string> settings)
    {
        var app = new InProcessApp(appId, MemberOf(contentRoot, settings), port, new AppHostOptions
        {
            Sidecar = new Uri(settings["DAPR_HTTP_ENDPOINT"]),
            SidecarIsEmulator = false,
            Settings = settings.Where(s => s.Key != "ASPNETCORE_ENVIRONMENT")
                .ToDictionary(s => s.Key.Replace("__", ":", StringComparison.Ordinal), s => (string?)s.Value),
            ContentRoot = contentRoot,
            // Production unless the run file says otherwise, as the apps default to when dapr run gives none.
            EnvironmentName = settings.GetValueOrDefault("ASPNETCORE_ENVIRONMENT", Environments.Production),
            // Both loopbacks: a sidecar container reaches the app through a tunnel that may connect to either.
            Url = $"http://localhost:{port}",
        });
        await app.StartAsync();
        return app;
    }

    public async Task StartAsync()
    {
        if (_host is not null)
        {
            throw new InvalidOperationException($"{AppId} is already running.");
        }

        _host = await AppHost.StartAsync(_member, _options with
        {
            // The storage breaker's closing is logged at Debug: the outage tests count it.
            ConfigureLogging = (_, logging) => logging.ClearProviders().AddProvider(Logs)
                .AddFilter("OrderDistribution.Storage.StorageResilience", LogLevel.Debug),
        });
    }

    /// <summary>
    /// Stops the app as a crash would leave its sidecar: nothing answers on its port until <see cref="StartAsync()"/>.
    /// </summary>
    public async Task StopAsync()
    {
        if (_host is { } host)
        {
            _host = null;
            await host.StopAsync();
            await host.DisposeAsync();
        }
    }

    public async ValueTask DisposeAsync() => await StopAsync();

    /// <summary>
    /// The run file's app directory says which app it is; both receivers run the receiver's project, told apart by
    /// INSTANCE.
    /// </summary>
    private static string MemberOf(string contentRoot, IReadOnlyDictionary<string, string> settings) =>
        Path.GetFileName(Path.TrimEndingDirectorySeparator(contentRoot)) switch
        {
            "OrderDistribution.Distributor" => AppHost.Distributor,
            "OrderDistribution.Receiver" => settings.GetValueOrDefault("INSTANCE")
                ?? throw new InvalidOperationException("The run file gives a receiver no INSTANCE."),
            var other =>
                throw new InvalidOperationException(
                $"The run file names an app directory no in-process app is known for: {other}"),
        };
}
