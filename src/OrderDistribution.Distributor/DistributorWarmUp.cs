using Dapr.Client;
using Microsoft.AspNetCore.Http.Json;
using Microsoft.Extensions.Options;
using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.ServiceDefaults;
using Polly;

namespace OrderDistribution.Distributor;

/// <summary>
/// The distributor's warm-up: a sample request, decoded as the entry points decode it, taken through the app's own
/// <see cref="OrderDistributor"/> once for each way in, over forwarders whose sidecar publishes nothing
/// (<see cref="DrySidecarOutbound"/>); then the sidecar's outbound health and its metadata asked through the sidecar's
/// resilience pipeline, which opens both connections to it: the health check's HTTP one, and the gRPC channel the
/// publishes use. Nothing is published.
/// </summary>
public sealed class DistributorWarmUp(
    IServiceProvider services,
    OrderRouter router,
    DaprClient dapr,
    SidecarProbe sidecar,
    [FromKeyedServices(SidecarResilience.Key)] ResiliencePipeline resilience,
    IOptions<JsonOptions> json,
    IOptions<ReadinessOptions> readiness,
    ILogger<DistributorWarmUp> logger) : StartupWarmUp(readiness, logger)
{
    protected override async Task RunHotPathsAsync(CancellationToken cancellationToken)
    {
        var orders = await SampleRequest.DecodeAsync(json.Value.SerializerOptions, cancellationToken);
        var dry = new OrderDistributor(router, OrderForwarders.Over(new DrySidecarOutbound(), services));
        foreach (var model in Enum.GetValues<MessagingModel>())
        {
            await dry.HandleAsync(orders, model, new RequestProgress(orders.Count), cancellationToken);
        }

        // The handler's whole graph (the Dapr client, the forwarders, the resilience pipeline), built as a request
        // builds it.
        using var scope = services.CreateScope();
        _ = scope.ServiceProvider.GetRequiredService<IOrderHandler>();
    }

    protected override async Task OpenConnectionsAsync(CancellationToken cancellationToken)
    {
        await resilience.ExecuteAsync(async ct => await sidecar.CheckAsync(ct), cancellationToken);
        await resilience.ExecuteAsync(async ct => await dapr.GetMetadataAsync(ct), cancellationToken);
    }
}
