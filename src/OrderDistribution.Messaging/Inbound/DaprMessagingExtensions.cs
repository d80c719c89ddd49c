using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace OrderDistribution.Messaging.Inbound;

public static class DaprMessagingExtensions
{
    /// <summary>How the app subscribes, validated at start; and a request body limit that fits the largest valid delivery.</summary>
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
}
