using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.Hosting;
using NSubstitute;

namespace OrderDistribution.Distributor.Tests;

/// <summary>
/// What the warm-up opens before the app answers, with the readiness checks (which ask the same calls) taken out: the
/// sidecar's health check's connection and the metadata call's.
/// </summary>
public sealed class WarmUpConnectionTests
{
    [Fact]
    public async Task The_warm_up_itself_asks_the_sidecars_outbound_health_and_metadata_before_the_app_answers()
    {
        using var distributor = new DistributorFactory();
        using var app = distributor.WithWebHostBuilder(builder => builder.ConfigureTestServices(services =>
        {
            foreach (var monitor in services.Where(s => s.ServiceType == typeof(IHostedService)
                && s.ImplementationType?.Name == "ReadinessMonitor").ToList())
            {
                services.Remove(monitor);
            }
        }));

        using var response = await app.CreateClient()
            .GetAsync(ServiceDefaults.ServiceDefaultsExtensions.LivenessPath, TestContext.Current.CancellationToken);

        await distributor.Sidecar.Client.ReceivedWithAnyArgs(1).CheckOutboundHealthAsync(default);
        await distributor.Sidecar.Client.ReceivedWithAnyArgs(1).GetMetadataAsync(default);
    }
}
