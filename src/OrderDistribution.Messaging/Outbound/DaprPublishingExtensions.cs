using Dapr.Client;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderDistribution.ServiceDefaults;
using Polly;

namespace OrderDistribution.Messaging.Outbound;

public static class DaprPublishingExtensions
{
    /// <summary>
    /// Publishing through the sidecar with Dapr's <see cref="DaprClient"/> (output bindings through its HTTP API,
    /// <see cref="SidecarOutputBindings"/>), at the address <c>dapr run</c> or Container Apps gives, behind one resilience
    /// pipeline per process; bulk publishes within the byte budget; orders too large for good dropped before any call;
    /// and readiness that follows the sidecar and what its refusals say about the configuration. The distributor and the load tool both publish through this.
    /// </summary>
    public static IServiceCollection AddDaprPublishing(this IServiceCollection services)
    {
        services.AddOptions<DaprSidecarOptions>()
            .BindConfiguration(DaprSidecarOptions.Section)
            .Configure<IConfiguration>((sidecar, configuration) => sidecar.ReadAddress(configuration))
            .ValidateDataAnnotations()
            .ValidateOnStart();
        services.AddSingleton(provider => provider.GetRequiredService<IOptions<DaprSidecarOptions>>().Value);
        services.AddMessagingOptions();
        // Each call's timeout is the resilience pipeline's, and the delivery's deadline cancels the rest.
        services.AddDaprClient((provider, builder) =>
        {
            var sidecar = provider.GetRequiredService<DaprSidecarOptions>();
            builder
                .UseGrpcEndpoint(sidecar.GrpcEndpoint.ToString())
                .UseHttpEndpoint(sidecar.HttpEndpoint.ToString())
                .UseDaprApiToken(sidecar.ApiToken ?? "")
                .UseGrpcChannelOptions(DaprSidecarOptions.ChannelOptions());
        });
        services.AddSingleton(provider => AlphaBulkPublishClient.Create(provider.GetRequiredService<DaprSidecarOptions>()));
        services.AddSingleton<SidecarBulkPublisher>();
        services.AddHttpClient<IOutputBindings, SidecarOutputBindings>(http => http.Timeout = Timeout.InfiniteTimeSpan);
        services.AddSingleton<OrderSizeLimit>();
        services.AddSingleton<SidecarFailures>();
        services.AddSingleton<IReadinessProbe>(provider => provider.GetRequiredService<SidecarFailures>());
        services.AddResiliencePipeline(DaprSidecarResilience.Key, (builder, context) =>
            builder.AddSidecarStrategies(
                context.ServiceProvider.GetRequiredService<DaprSidecarOptions>().Limits,
                context.ServiceProvider.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(DaprSidecarResilience)),
                context.ServiceProvider.GetRequiredService<WarningPace>()));
        services.AddSingleton<ISidecarOutbound, SidecarOutbound>();
        services.AddTransient<BulkOrderPublisher>();
        services.AddSingleton<SidecarOrderCall>();
        services.AddSingleton<DaprSidecarProbe>();
        services.AddSingleton<IReadinessProbe>(provider => provider.GetRequiredService<DaprSidecarProbe>());
        return services;
    }
}
