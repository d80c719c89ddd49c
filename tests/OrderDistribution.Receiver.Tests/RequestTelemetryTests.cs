using Microsoft.ApplicationInsights.AspNetCore.Extensions;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// What a receiver sends Application Insights: its request per delivery and its <c>OrdersStored</c> events (the cycle
/// time's queries read them), not one dependency per blob upload, which no query reads and which cost CPU and
/// ingestion per order (docs/benchmark.md, "A receiver's CPU per order: precompiled code and telemetry").
/// </summary>
public sealed class RequestTelemetryTests
{
    // Read from the app's options, not from a recording channel: every host in a test process hears every host's
    // requests and HTTP calls, so which host's channel an item reaches depends on the other tests running.
    [Fact]
    public void A_receiver_tracks_its_requests_and_does_not_track_each_blob_upload_as_a_dependency()
    {
        using var app = new ReceiverFactory(Azurite.ConnectionStringFor(1));

        var options = app.Services.GetRequiredService<IOptions<ApplicationInsightsServiceOptions>>().Value;

        Assert.True(options.EnableRequestTrackingTelemetryModule);
        Assert.False(options.EnableDependencyTrackingTelemetryModule);
        Assert.False(options.EnableAdaptiveSampling);
    }
}
