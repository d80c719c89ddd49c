using Castle.DynamicProxy;
using Dapr.Client;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.SidecarEmulator.Client;

/// <summary>
/// A <see cref="DaprClient"/> over the sidecar emulator: it hands the calls the apps make with it (publish, bulk
/// publish, outbound health, metadata) to an <see cref="EmulatedSidecar"/> over the sidecar's HTTP API, and
/// reports each outcome the way the SDK reports it from a real sidecar: a bulk publish's named failures as
/// <c>FailedEntries</c> under the SDK's entry ids (the indexes of the events), any other refusal as a
/// <see cref="Dapr.DaprException"/> around an <see cref="Grpc.Core.RpcException"/>, a cancelled call as cancellation.
/// </summary>
public static class EmulatorDaprClient
{
    /// <summary>
    /// Castle's proxies of the abstract DaprClient (some sixty members): only the calls the apps make are forwarded.
    /// </summary>
    private static readonly ProxyGenerator Proxies = new();

    /// <summary>Replaces the app's DaprClient with one over the sidecar emulator its Dapr settings point at.</summary>
    public static void UseSidecarEmulator(this IServiceCollection services) =>
        services.Replace(ServiceDescriptor.Singleton(provider =>
        {
            var sidecar = provider.GetRequiredService<SidecarOptions>();
            return Over(sidecar.HttpEndpoint, sidecar.ApiToken);
        }));

    /// <summary>
    /// The apps' own publishing (<see cref="SidecarExtensions.AddSidecarOutbound"/>) over the sidecar emulator at
    /// <paramref name="sidecar"/>, with any further settings.
    /// </summary>
    public static ServiceProvider Publishing(Uri sidecar, params (string Key, string Value)[] settings) =>
        Publishing(sidecar, logs: null, settings);

    /// <param name="logs">Gets every line the publishing logs, when given.</param>
    public static ServiceProvider Publishing(Uri sidecar, ILoggerProvider? logs,
        params (string Key, string Value)[] settings)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, (string?)s.Value))
                .Append(KeyValuePair.Create("DAPR_HTTP_ENDPOINT", (string?)sidecar.ToString())))
            .Build();
        var services = new ServiceCollection()
            .AddLogging(logging =>
            {
                if (logs is not null)
                {
                    logging.AddProvider(logs).SetMinimumLevel(LogLevel.Debug);
                }
            })
            .AddSingleton<IConfiguration>(configuration)
            .AddSidecarOutbound();
        services.UseSidecarEmulator();
        return services.BuildServiceProvider();
    }

    public static DaprClient Over(Uri sidecar, string? apiToken = null)
    {
        var http = new HttpClient { BaseAddress = sidecar, Timeout = Timeout.InfiniteTimeSpan };
        if (apiToken is not null)
        {
            http.DefaultRequestHeaders.Add("dapr-api-token", apiToken);
        }

        return Proxies.CreateClassProxy<DaprClient>(new ForwardingInterceptor(http));
    }

    /// <summary>
    /// The emulator's accepting mode, with no server: a DaprClient that confirms every publish without sending it
    /// anywhere, and reports the sidecar healthy. What is left of a publish is the app's own work (the benchmark's
    /// distributor alone).
    /// </summary>
    public static DaprClient Accepting() => Proxies.CreateClassProxy<DaprClient>(new AcceptingInterceptor());

    /// <summary>A call the apps do not make, which neither mode serves.</summary>
    internal static NotSupportedException NotServed(IInvocation invocation) =>
        new($"The sidecar emulator does not serve DaprClient.{invocation.Method.Name}.");
}
