using Dapr.Client;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.ServiceDefaults;
using Polly;

namespace OrderDistribution.Messaging.Outbound;

public static class SidecarExtensions
{
    /// <summary>
    /// Publishing through the sidecar with Dapr's <see cref="DaprClient"/> (output bindings through its HTTP API,
    /// <see cref="SidecarOutputBindings"/>), at the address <c>dapr run</c> or Container Apps gives, behind one
    /// resilience pipeline per process; bulk publishes within the byte budget; orders too large for good dropped before
    /// any call; the dead-letter queue the entry points keep refused messages on; and readiness that follows the
    /// sidecar and what its refusals say about the configuration. The three apps and the load tool publish through
    /// this.
    /// </summary>
    /// <param name="sidecarReadiness">Whether the app is ready only while its sidecar's outbound side answers: the
    /// distributor and the load tool, which send every order through it; not the receivers, which send only what
    /// they refuse for good (a refusal of every call still makes them not ready).</param>
    public static IServiceCollection AddSidecarOutbound(this IServiceCollection services, bool sidecarReadiness = true)
    {
        services.AddSettings<SidecarOptions>(SidecarOptions.Section)
            .Configure<IConfiguration>((sidecar, configuration) => sidecar.ReadAddress(configuration));
        services.AddSingleton(provider => provider.GetRequiredService<IOptions<SidecarOptions>>().Value);
        services.AddMessagingOptions();
        // Each call's timeout is the resilience pipeline's, and the request's deadline cancels the rest.
        services.AddDaprClient((provider, builder) =>
        {
            var sidecar = provider.GetRequiredService<SidecarOptions>();
            builder
                .UseGrpcEndpoint(sidecar.GrpcEndpoint.ToString())
                .UseHttpEndpoint(sidecar.HttpEndpoint.ToString())
                .UseDaprApiToken(sidecar.ApiToken ?? "")
                .UseGrpcChannelOptions(SidecarOptions.ChannelOptions());
        });
        services.AddSingleton(provider => AlphaBulkPublishClient.Create(provider.GetRequiredService<SidecarOptions>()));
        services.AddSingleton<SidecarOutboundClient>();
        // One call per order in the bindings model: without the factory's logging handlers, which begin a scope and
        // log twice on every call (the resilience pipeline logs what fails). The handler's Activity stays: tracing.
        services.AddHttpClient<IOutputBindings, SidecarOutputBindings>(http => http.Timeout = Timeout.InfiniteTimeSpan)
            .RemoveAllLoggers();
        services.AddSingleton<OrderSizeLimit>();
        services.AddSingleton<SidecarFailureJudge>();
        services.AddSingleton<IReadinessProbe>(provider => provider.GetRequiredService<SidecarFailureJudge>());
        services.AddResiliencePipeline(SidecarResilience.Key, (builder, context) =>
            builder.AddSidecarStrategies(
                context.ServiceProvider.GetRequiredService<SidecarOptions>().Limits,
                context.ServiceProvider.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(SidecarResilience)),
                context.ServiceProvider.GetRequiredService<WarningPace>()));
        services.AddSingleton<ISidecarOutbound>(provider => provider.GetRequiredService<SidecarOutboundClient>());
        services.AddTransient<BulkOrderPublisher>();
        services.AddSingleton<SidecarOrderCall>();
        services.AddSingleton<IDeadLetters, SidecarDeadLetters>();
        services.AddSingleton<SidecarProbe>();
        if (sidecarReadiness)
        {
            services.AddSingleton<IReadinessProbe>(provider => provider.GetRequiredService<SidecarProbe>());
        }

        return services;
    }
}
