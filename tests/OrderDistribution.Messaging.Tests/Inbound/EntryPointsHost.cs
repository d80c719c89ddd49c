using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.ServiceDefaults;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// The messaging core's entry points alone, on 127.0.0.1, with a stub <see cref="IOrderHandler"/>: one that takes every
/// order it is given (what the entry points decide before any app's handler sees an order), or one that sends every
/// order on through the core's ways out to the sidecar emulator, in a host with the apps' defaults (what a request is
/// answered by what the sidecar does).
/// </summary>
public sealed class EntryPointsHost : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly TakingHandler? _handler;

    private EntryPointsHost(WebApplication app, TakingHandler? handler, LogRecorder logs)
    {
        DeadLetters = app.Services.GetRequiredService<IDeadLetters>();
        _app = app;
        _handler = handler;
        Logs = logs;
        Client = new HttpClient
        {
            BaseAddress = new Uri(
            app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First())
        };
    }

    public static readonly OrderRoutes Routes = new("q-order-ingress", "q-order-ingress-input");

    /// <summary>The orders the stub took; a host that forwards has them at its sidecar instead.</summary>
    public TakingHandler Handler => _handler
        ?? throw new InvalidOperationException("This host forwards its orders: they are at its sidecar.");

    public HttpClient Client { get; }

    /// <summary>Where the host keeps what it refuses for good: <see cref="KeptLetters"/> unless it forwards.</summary>
    public IDeadLetters DeadLetters { get; }

    /// <summary>The letters a host without a sidecar kept.</summary>
    public KeptLetters Kept => DeadLetters as KeptLetters
        ?? throw new InvalidOperationException("This host forwards its dead letters: they are at its sidecar.");

    public LogRecorder Logs { get; }

    public IServiceProvider Services => _app.Services;

    public static Task<EntryPointsHost> StartAsync(params (string Key, string? Value)[] settings) =>
        StartAsync(new TakingHandler(), settings);

    /// <summary>The entry points over <paramref name="handler"/>.</summary>
    public static Task<EntryPointsHost> StartAsync(
        IOrderHandler handler, params (string Key, string? Value)[] settings) =>
        StartAsync(handler, _ => { }, settings);

    /// <param name="handler">Takes the orders.</param>
    /// <param name="services">Changes the registrations, after the host's own.</param>
    /// <param name="settings">Configuration keys and their values.</param>
    public static async Task<EntryPointsHost> StartAsync(
        IOrderHandler handler, Action<IServiceCollection> services, params (string Key, string? Value)[] settings)
    {
        var (app, logs) = Build(
            Environments.Production, settings, registrations =>
            {
                registrations.AddSingleton(handler);
                registrations.AddSingleton<IDeadLetters, KeptLetters>();
                services(registrations);
            });
        app.MapOrderEntryPoints(Routes);
        await app.StartAsync();
        return new EntryPointsHost(app, handler as TakingHandler, logs);
    }

    /// <summary>
    /// The entry points with the apps' defaults (health, error answers, the app API token) and a
    /// <see cref="ForwardingHandler"/> that publishes through the sidecar emulator at <paramref name="sidecar"/>.
    /// </summary>
    public static Task<EntryPointsHost> ForwardingAsync(Uri sidecar, params (string Key, string? Value)[] settings) =>
        ForwardingAsync(sidecar, Environments.Production, _ => { }, settings);

    /// <param name="environment">The host's environment.</param>
    /// <param name="services">Changes the registrations, after the host's own.</param>
    public static async Task<EntryPointsHost> ForwardingAsync(
        Uri sidecar, string environment, Action<IServiceCollection> services,
            params (string Key, string? Value)[] settings)
    {
        var (app, logs) = Build(
            environment,
            [
                // The apps' own log levels (their appsettings.json): the framework's lines per request are not logged.
                ("Logging:LogLevel:Microsoft.AspNetCore", "Warning"),
                    ("Logging:LogLevel:System.Net.Http.HttpClient", "Warning"),
                ("Readiness:Interval", "00:00:00.100"), ("DAPR_HTTP_ENDPOINT", sidecar.ToString()), .. settings,
            ],
            registrations =>
            {
                registrations.AddSidecarOutbound();
                registrations.UseSidecarEmulator();
                registrations.AddSingleton<IOrderHandler, ForwardingHandler>();
                services(registrations);
            },
            serviceDefaults: true);
        app.UseServiceDefaults();
        app.MapOrderEntryPoints(Routes);
        await app.StartAsync();
        return new EntryPointsHost(app, handler: null, logs);
    }

    private static (WebApplication App, LogRecorder Logs) Build(
        string environment, (string Key, string? Value)[] settings, Action<IServiceCollection> services,
            bool serviceDefaults = false)
    {
        // Settings files read once, as the apps read them: a watcher each would hold one of the user's 128 inotify
        // instances for as long as the test program runs (Stryker's runs one program for every mutant).
        var builder = WebApplication.CreateSlimBuilder(
            new WebApplicationOptions { EnvironmentName = environment, Args = [SettingsCheck.ReadSettingsOnce] });
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Configuration.AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, s.Value)));
        var logs = new LogRecorder();
        builder.Logging.AddProvider(logs);
        if (serviceDefaults)
        {
            builder.AddServiceDefaults();
        }

        builder.Services.AddOrderEntryPoints();
        services(builder.Services);
        return (builder.Build(), logs);
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await _app.DisposeAsync();
    }
}
