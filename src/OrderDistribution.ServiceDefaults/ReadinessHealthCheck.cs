using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace OrderDistribution.ServiceDefaults;

internal sealed class ReadinessHealthCheck(ReadinessState state) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(
        HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(state.IsReady ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy(state.Describe()));
}
