using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging;

public static class MessagingExtensions
{
    /// <summary>
    /// How the app talks to the sidecar, validated at start, and the process's one pace of warnings, which every
    /// request and every circuit breaker of the app share. Both ways, in and out, build on this.
    /// </summary>
    public static IServiceCollection AddMessagingOptions(this IServiceCollection services)
    {
        services.AddSettings<MessagingOptions>(MessagingOptions.Section);
        services.TryAddSingleton(TimeProvider.System);
        services.TryAddSingleton<WarningPace>();
        return services;
    }
}
