using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.ApplicationInsights.WindowsServer.TelemetryChannel;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// Sends <see cref="TelemetryOptions.RequestSamplingPercentage"/> of the requests, chosen by operation as Application
/// Insights' fixed-rate sampling chooses, and every other item (docs/azure.md, "What a burst costs").
/// </summary>
public sealed class RequestSampling : ITelemetryProcessor
{
    private readonly ITelemetryProcessor _next;

    public RequestSampling(ITelemetryProcessor next, IOptions<TelemetryOptions> options)
    {
        var percentage = options.Value.RequestSamplingPercentage;
        _next = percentage < 100
            ? new SamplingTelemetryProcessor(next) { SamplingPercentage = percentage, IncludedTypes = "Request" }
            : next;
    }

    public void Process(ITelemetry item) => _next.Process(item);
}
