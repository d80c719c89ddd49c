using Microsoft.ApplicationInsights.Extensibility;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// Sends <see cref="TelemetryOptions.RequestSamplingPercentage"/> of the requests, chosen by operation as Application
/// Insights' fixed-rate sampling chooses, and every other item (docs/azure.md, "What a burst costs").
/// </summary>
public static class RequestSampling
{
    /// <summary>
    /// Ends the processor chain with the sampling, as the SDK places its own: the standard metrics and live metrics
    /// before it still see every request.
    /// </summary>
    public static void Use(TelemetryConfiguration configuration, double percentage)
    {
        if (percentage >= 100)
        {
            return;
        }

        var chain = configuration.DefaultTelemetrySink.TelemetryProcessorChainBuilder;
        chain.UseSampling(percentage, includedTypes: "Request");
        chain.Build();
    }
}
