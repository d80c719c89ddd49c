using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderDistribution.ServiceDefaults;
using Polly;

namespace OrderDistribution.Storage;

public static class StorageExtensions
{
    /// <summary>
    /// The order store's options, validated at start, and the one resilience pipeline of the process's storage calls
    /// (<see cref="StorageResilience.Key"/>).
    /// </summary>
    /// <param name="maxConcurrentCalls">Storage calls the process runs at once, over all requests: the app's own
    /// bound.</param>
    public static IServiceCollection AddOrderStorage(
        this IServiceCollection services, Func<IServiceProvider, int> maxConcurrentCalls)
    {
        services.AddSettings<StorageOptions>(StorageOptions.Section);
        // One pace per process, shared with every other dependency's warnings.
        services.TryAddSingleton(TimeProvider.System);
        services.TryAddSingleton<WarningPace>();
        services.AddResiliencePipeline(StorageResilience.Key, (pipeline, context) =>
        {
            var provider = context.ServiceProvider;
            pipeline.AddStorageStrategies(
                new DependencyLimits(
                    provider.GetRequiredService<IOptions<StorageOptions>>().Value.RequestTimeout,
                    maxConcurrentCalls(provider)),
                provider.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(StorageResilience)),
                provider.GetRequiredService<WarningPace>());
        });
        return services;
    }
}
