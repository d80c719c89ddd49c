using System.Net;
using NSubstitute;

namespace OrderDistribution.Distributor.Tests;

/// <summary>
/// The warm-up at start: it runs before the app answers anything, publishes nothing, and never stops the start.
/// </summary>
public sealed class WarmUpTests
{
    [Fact]
    public async Task The_distributor_warms_up_opening_both_sidecar_connections_before_it_answers_publishing_nothing()
    {
        using var app = new DistributorFactory(("Logging:LogLevel:Default", "Debug"));

        using var response = await app.CreateClient()
            .GetAsync(ServiceDefaults.ServiceDefaultsExtensions.LivenessPath, TestContext.Current.CancellationToken);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains(app.Logs.Lines,
            l => l.Category == typeof(DistributorWarmUp).FullName
            && l.Message.StartsWith("Warmed up in ", StringComparison.Ordinal));
        Assert.DoesNotContain(app.Logs.Lines,
            l => l.Message.StartsWith("Warm-up: the connections are not open", StringComparison.Ordinal));
        await app.Sidecar.Client.ReceivedWithAnyArgs().CheckOutboundHealthAsync(default);
        await app.Sidecar.Client.ReceivedWithAnyArgs().GetMetadataAsync(default);
        Assert.Empty(app.Sidecar.BulkPublishes);
        Assert.Empty(app.Sidecar.Publishes);
        Assert.Empty(app.Sidecar.BindingCalls);
    }

    [Fact]
    public async Task Over_a_sidecar_s_HTTP_API_the_warm_up_reads_its_metadata_and_opens_both_connections()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.Metadata = """{"id":"distributor"}""";
        using var app = new DistributorFactory(("DAPR_HTTP_ENDPOINT", sidecar.Address.ToString()),
            ("Logging:LogLevel:Default", "Debug"))
        { OverEmulator = true };

        using var response = await app.CreateClient()
            .GetAsync(ServiceDefaults.ServiceDefaultsExtensions.LivenessPath, TestContext.Current.CancellationToken);

        Assert.Contains(app.Logs.Lines,
            l => l.Category == typeof(DistributorWarmUp).FullName
            && l.Message.StartsWith("Warmed up in ", StringComparison.Ordinal));
        Assert.DoesNotContain(app.Logs.Lines,
            l => l.Message.StartsWith("Warm-up: the connections are not open", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_sidecar_that_does_not_answer_the_warm_up_leaves_the_app_started_and_not_ready()
    {
        using var app = new DistributorFactory(("Readiness:Timeout", "00:00:00.300"));
        app.Sidecar.Client.CheckOutboundHealthAsync(default).ReturnsForAnyArgs(async call =>
        {
            await Task.Delay(Timeout.Infinite, call.ArgAt<CancellationToken>(0));
            return true;
        });
        var client = app.CreateClient();

        using var alive = await client.GetAsync(ServiceDefaults.ServiceDefaultsExtensions.LivenessPath,
            TestContext.Current.CancellationToken);
        using var ready = await client.GetAsync(ServiceDefaults.ServiceDefaultsExtensions.ReadinessPath,
            TestContext.Current.CancellationToken);

        Assert.Equal(HttpStatusCode.OK, alive.StatusCode);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, ready.StatusCode);
    }
}
