using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging.Inbound;

public static class OrderEntryPointsExtensions
{
    /// <summary>
    /// How the app subscribes, validated at start; a request body limit that fits the largest valid request; and the
    /// app's paced outage warnings.
    /// </summary>
    public static IServiceCollection AddOrderEntryPoints(this IServiceCollection services)
    {
        services.AddMessagingOptions();
        services.AddOptions<KestrelServerOptions>().Configure<IOptions<MessagingOptions>>(
            (kestrel, messaging) => kestrel.Limits.MaxRequestBodySize = messaging.Value.MaxRequestBytes);
        // One outage per process: every request of the app shares it.
        services.TryAddSingleton(provider => new RetryOutage(
            provider.GetRequiredService<TimeProvider>(), provider.GetRequiredService<WarningPace>(),
            provider.GetRequiredService<ILoggerFactory>().CreateLogger<RequestRun>()));
        return services;
    }
}
