using Microsoft.Extensions.Logging;
using OrderDistribution.ServiceDefaults;
using Polly;

namespace OrderDistribution.Storage;

/// <summary>The resilience pipeline of the app's storage calls, one per process.</summary>
public static class StorageResilience
{
    public const string Key = "storage";

    public static ResiliencePipelineBuilder AddStorageStrategies(
        this ResiliencePipelineBuilder builder, DependencyLimits limits, ILogger logger, WarningPace pace) =>
        builder.AddDependencyStrategies(limits, StorageFailure.IsTransient, logger, "storage", pace,
            // A container deleted under the app says nothing about storage's health: create it, write again.
            isRetriedWithoutCountingAsFailure: StorageFailure.IsContainerNotFound);
}
