using Microsoft.Extensions.Logging;
using OrderDistribution.ServiceDefaults;
using Polly;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>The resilience pipeline every call to the sidecar goes through, one per process.</summary>
public static class SidecarResilience
{
    public const string Key = "dapr-sidecar";

    /// <summary>
    /// Only transient failures are retried here and count toward the breaker (<see
    /// cref="SidecarFailure.CountsAgainstSidecar"/>): a refusal of one order for good (its size, its content) or of
    /// every order (a component not found, 401) fails the same way on every try and says nothing about the sidecar's
    /// health, so one bad order cannot open the circuit for all. A bulk publish the broker refused in part counts once,
    /// however many entries failed.
    /// </summary>
    public static ResiliencePipelineBuilder AddSidecarStrategies(this ResiliencePipelineBuilder builder,
        DependencyLimits limits, ILogger logger, WarningPace pace) =>
        builder.AddDependencyStrategies(
            limits,
            // The caller's own cancellation (the request's deadline) is not the sidecar's failure.
            isFailure: SidecarFailure.CountsAgainstSidecar,
            logger,
            "the Dapr sidecar",
            pace,
            describe: SidecarFailure.Reason);
}
