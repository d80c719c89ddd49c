using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Console;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.TrioHarness;

/// <summary>
/// The distributor or the receiver alone, started by the emulator's <see cref="AppHost"/> on ASP.NET's in-memory test
/// server (no sockets: what is measured is the app's own work) with its own settings file, log levels included: what
/// they log goes to the recorder, so that a run can count the lines a real one prints, and with
/// <see cref="Console"/> to a console too, as under <c>dapr run</c>, so that a run also pays for printing them.
/// </summary>
public static class InProcessApps
{
    /// <summary>
    /// No sidecar listens there: the distributor alone publishes through <see cref="EmulatorDaprClient.Accepting"/>.
    /// </summary>
    private static readonly Uri NoSidecar = new("http://127.0.0.1:1");

    /// <summary>Whether the apps also log to the console (the benchmark's <c>--console</c>).</summary>
    public static bool Console { get; set; }

    /// <param name="toStandardError">The console lines go to standard error: an app's own process, whose standard
    /// output answers the benchmark.</param>
    public static void Log(ILoggingBuilder logging, LogRecorder logs, bool toStandardError = false)
    {
        logging.ClearProviders().AddProvider(logs);
        if (Console)
        {
            logging.AddSimpleConsole();
            if (toStandardError)
            {
                logging.Services.Configure<ConsoleLoggerOptions>(console =>
                    console.LogToStandardErrorThreshold = LogLevel.Trace);
            }
        }
    }

    /// <summary>
    /// The distributor alone: every publish taken at no cost, so that what is left is the distributor's own work.
    /// </summary>
    public static Task<WebApplication> DistributorAsync(LogRecorder logs) =>
        StartAsync(AppHost.Distributor, logs, [],
            services => services.Replace(ServiceDescriptor.Singleton(EmulatorDaprClient.Accepting())));

    /// <summary>The express receiver alone, storing into <paramref name="storage"/>.</summary>
    public static Task<WebApplication> ReceiverAsync(string storage, LogRecorder logs) =>
        StartAsync(OrderTopology.InstanceOf(Delivery.Express), logs, new() { ["Storage:ConnectionString"] = storage },
            _ => { });

    /// <summary>A client of an app started here, through the test server's own handler.</summary>
    public static HttpClient ClientOf(WebApplication app) =>
        ((TestServer)app.Services.GetRequiredService<IServer>()).CreateClient();

    private static Task<WebApplication> StartAsync(string member, LogRecorder logs, Dictionary<string,
        string?> settings, Action<IServiceCollection> configure) =>
        AppHost.StartAsync(member, new AppHostOptions
        {
            Sidecar = NoSidecar,
            Settings = settings,
            ConfigureLogging = (_, logging) => Log(logging, logs),
            ConfigureServices = (_, services) =>
            {
                services.Replace(ServiceDescriptor.Singleton<IServer, TestServer>());
                configure(services);
            },
        });
}
