using OrderDistribution.ServiceDefaults;
using OrderDistribution.Storage;
using Polly;

namespace OrderDistribution.Receiver;

/// <summary>The resilience pipeline of the receiver's storage calls, one per process.</summary>
public static class StorageResilience
{
    public const string Key = "storage";

    public static ResiliencePipelineBuilder AddStorageStrategies(this ResiliencePipelineBuilder builder, DependencyLimits limits, ILogger logger, WarningPace pace) =>
        builder.AddDependencyStrategies(limits, StorageFailure.IsTransient, logger, "storage", pace,
            // A container deleted under the receiver says nothing about storage's health: create it, write again.
            isRetriedWithoutCountingAsFailure: StorageFailure.IsContainerNotFound);
}
