using Microsoft.ApplicationInsights.DataContracts;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.ApplicationInsights.WindowsServer.TelemetryChannel;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Distributor.Tests;

public sealed class TelemetryTests
{
    [Theory]
    [InlineData("distributor", "order-distributor-app", "order-distributor-app")]
    [InlineData("distributor", null, "distributor")]
    public void Telemetry_carries_the_container_app_name_as_cloud_role_else_the_dapr_app_id(string appId,
        string? containerApp, string expected)
    {
        using var app = new DistributorFactory(("APP_ID", appId), ("CONTAINER_APP_NAME", containerApp));
        var request = new RequestTelemetry();

        foreach (var initializer in app.Services.GetServices<ITelemetryInitializer>())
        {
            initializer.Initialize(request);
        }

        Assert.Equal(expected, request.Context.Cloud.RoleName);
    }

    [Fact]
    public void Successful_calls_to_the_sidecar_are_not_sent_as_dependencies_and_failed_ones_are()
    {
        using var app = new DistributorFactory();

        var processors = app.Services.GetRequiredService<TelemetryConfiguration>().DefaultTelemetrySink
            .TelemetryProcessors;

        Assert.Contains(processors, p => p is FailedDependenciesOnly);
    }

    [Fact]
    public void The_share_of_requests_sent_is_the_apps_setting()
    {
        using var app = new DistributorFactory(("Telemetry:RequestSamplingPercentage", "10"));

        var processors = app.Services.GetRequiredService<TelemetryConfiguration>().DefaultTelemetrySink
            .TelemetryProcessors;

        // Last before sending, as the SDK's own sampling: the standard and live metrics count every request.
        var names = processors.Select(p => p.GetType().Name).ToList();
        var at = names.IndexOf(nameof(SamplingTelemetryProcessor));
        var sampling = Assert.IsType<SamplingTelemetryProcessor>(processors[at]);
        Assert.Equal(10, sampling.SamplingPercentage);
        Assert.Equal("Request", sampling.IncludedTypes);
        Assert.InRange(names.IndexOf("AutocollectedMetricsExtractor"), 0, at - 1);
        Assert.InRange(names.IndexOf("QuickPulseTelemetryProcessor"), 0, at - 1);
    }
}
