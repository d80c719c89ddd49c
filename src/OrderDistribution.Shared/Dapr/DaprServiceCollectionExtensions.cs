using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderDistribution.Hosting;
using Polly;

namespace OrderDistribution.Dapr;

public static class DaprServiceCollectionExtensions
{
    /// <summary>How the app subscribes and publishes, validated at start; and a request body limit that fits the largest valid delivery.</summary>
    public static IServiceCollection AddDaprMessaging(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<MessagingOptions>()
            .Bind(configuration.GetSection(MessagingOptions.Section))
            .ValidateDataAnnotations()
            .ValidateOnStart();
        services.AddOptions<KestrelServerOptions>().Configure<IOptions<MessagingOptions>>(
            (kestrel, messaging) => kestrel.Limits.MaxRequestBodySize = messaging.Value.MaxDeliveryBytes);
        return services;
    }

    /// <summary>
    /// The sidecar's HTTP API for publishing, at the address <c>dapr run</c> or Container Apps gives, behind one
    /// resilience pipeline per process; and readiness that follows the sidecar.
    /// </summary>
    public static IServiceCollection AddDaprPublisher(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddSingleton(DaprSidecarOptions.FromConfiguration(configuration));
        services.AddHttpClient<IDaprPublisher, DaprHttpPublisher>(ConfigureSidecarClient);
        services.AddHttpClient<DaprSidecarProbe>(ConfigureSidecarClient);
        services.AddSingleton<IReadinessProbe>(provider => provider.GetRequiredService<DaprSidecarProbe>());
        services.AddResiliencePipeline(DaprSidecarResilience.Key, (builder, context) =>
            builder.AddSidecarStrategies(
                context.ServiceProvider.GetRequiredService<DaprSidecarOptions>().Limits,
                context.ServiceProvider.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(DaprSidecarResilience))));
        services.AddTransient<BulkOrderPublisher>();
        return services;
    }

    private static void ConfigureSidecarClient(IServiceProvider provider, HttpClient http)
    {
        var sidecar = provider.GetRequiredService<DaprSidecarOptions>();
        http.BaseAddress = sidecar.HttpEndpoint;
        // Each attempt's timeout is the resilience pipeline's; a delivery's deadline cancels the rest.
        http.Timeout = Timeout.InfiniteTimeSpan;
        if (sidecar.ApiToken is { Length: > 0 } token)
        {
            http.DefaultRequestHeaders.Add("dapr-api-token", token);
        }
    }
}

/// <summary>The sidecar is ready when its outbound side (components, publishing) is: <c>GET /v1.0/healthz/outbound</c>.</summary>
public sealed class DaprSidecarProbe(HttpClient http) : IReadinessProbe
{
    public string Name => $"Dapr sidecar at {http.BaseAddress}";

    public async Task CheckAsync(CancellationToken cancellationToken)
    {
        using var response = await http.GetAsync("v1.0/healthz/outbound", cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw new HttpRequestException($"healthz/outbound answered {(int)response.StatusCode}");
        }
    }
}
