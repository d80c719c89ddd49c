using Dapr.Client;
using Microsoft.AspNetCore.Http.Json;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.ServiceDefaults;
using Polly;

namespace OrderDistribution.Distributor;

/// <summary>
/// The distributor's warm-up: sample orders decoded as the entry points decode them, routed, serialized and split into
/// bulk publishes as <see cref="OrderDistributor"/> does, then the sidecar's outbound health and its metadata asked
/// through the sidecar's resilience pipeline, which opens both connections to it: the health check's HTTP one, and
/// the gRPC channel the publishes use. Nothing is published.
/// </summary>
public sealed class DistributorWarmUp(
    IServiceProvider services,
    OrderRouter router,
    DaprClient dapr,
    DaprSidecarProbe sidecar,
    [FromKeyedServices(DaprSidecarResilience.Key)] ResiliencePipeline resilience,
    IOptions<MessagingOptions> messaging,
    IOptions<JsonOptions> json,
    IOptions<ReadinessOptions> readiness,
    ILogger<DistributorWarmUp> logger) : StartupWarmUp(readiness, logger)
{
    protected override async Task RunHotPathsAsync(CancellationToken cancellationToken)
    {
        var orders = await SampleDelivery.DecodeAsync(json.Value.SerializerOptions, cancellationToken);
        var metadata = BulkOrderPublisher.RequestMetadata(messaging.Value.MaxBulkPublishBytes);
        foreach (var topic in orders.Select((order, i) => new InboundOrder($"{i}", order)).GroupBy(o => router.Route(o.Order).Topic))
        {
            var messages = topic.Select(o => new OutboundMessage(o.EntryId, OrderJson.Serialize(o.Order))).ToList();
            _ = BulkPublishBudget.Chunk(messages, messaging.Value.MaxBulkPublishBytes, metadata);
        }

        // The handler's whole graph (the Dapr client, the publishers, the resilience pipeline), built as a delivery builds it.
        using var scope = services.CreateScope();
        _ = scope.ServiceProvider.GetRequiredService<IOrderHandler>();
    }

    protected override async Task OpenConnectionsAsync(CancellationToken cancellationToken)
    {
        await resilience.ExecuteAsync(async ct => await sidecar.CheckAsync(ct), cancellationToken);
        await resilience.ExecuteAsync(async ct => await dapr.GetMetadataAsync(ct), cancellationToken);
    }
}
