using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.DataContracts;
using Microsoft.ApplicationInsights.Extensibility;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// Sends a dependency call only when it failed: the distributor calls its sidecar once per order in single, and each
/// call would be an item Log Analytics bills, read by no query; scripts/kql/publish-errors.kql reads the failed ones
/// (docs/benchmark.md, "Telemetry items and bytes per order").
/// </summary>
public sealed class FailedDependenciesOnly(ITelemetryProcessor next) : ITelemetryProcessor
{
    public void Process(ITelemetry item)
    {
        if (item is DependencyTelemetry { Success: true })
        {
            return;
        }

        next.Process(item);
    }
}
