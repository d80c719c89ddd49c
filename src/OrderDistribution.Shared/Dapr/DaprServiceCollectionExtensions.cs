using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace OrderDistribution.Dapr;

public static class DaprServiceCollectionExtensions
{
    /// <summary>How the app subscribes and publishes, validated at start.</summary>
    public static IServiceCollection AddDaprMessaging(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<MessagingOptions>()
            .Bind(configuration.GetSection(MessagingOptions.Section))
            .ValidateDataAnnotations()
            .ValidateOnStart();
        return services;
    }

    /// <summary>The sidecar's HTTP API for publishing, at the address <c>dapr run</c> or Container Apps gives.</summary>
    public static IServiceCollection AddDaprPublisher(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddSingleton(DaprSidecarOptions.FromEnvironment(name => configuration[name]));
        services.AddHttpClient<IDaprPublisher, DaprHttpPublisher>((provider, http) =>
        {
            var sidecar = provider.GetRequiredService<DaprSidecarOptions>();
            http.BaseAddress = sidecar.HttpEndpoint;
            http.Timeout = sidecar.RequestTimeout;
            if (sidecar.ApiToken is { Length: > 0 } token)
            {
                http.DefaultRequestHeaders.Add("dapr-api-token", token);
            }
        });
        services.AddTransient<BulkOrderPublisher>();
        return services;
    }
}
