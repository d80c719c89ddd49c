using Microsoft.Extensions.Logging;
using OrderDistribution.ServiceDefaults;
using Polly;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>The resilience pipeline every call to the sidecar goes through, one per process.</summary>
public static class DaprSidecarResilience
{
    public const string Key = "dapr-sidecar";

    public static ResiliencePipelineBuilder AddSidecarStrategies(this ResiliencePipelineBuilder builder, DependencyLimits limits, ILogger logger) =>
        builder.AddDependencyStrategies(
            limits,
            // The caller's own cancellation (the delivery's deadline) is not the sidecar's failure.
            isFailure: DaprPublishFailure.IsSidecarFailure,
            logger,
            "the Dapr sidecar",
            // A partly failed bulk publish is worth trying again for its failed entries, but says nothing
            // about the sidecar's health: the broker refused some messages.
            isRetriedWithoutCountingAsFailure: e => e is BulkPublishPartlyFailedException,
            describe: DaprPublishFailure.Reason);
}
