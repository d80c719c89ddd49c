using Microsoft.AspNetCore.Http.Json;
using Microsoft.Extensions.Options;
using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.ServiceDefaults;
using OrderDistribution.Storage;
using Polly;

namespace OrderDistribution.Receiver;

/// <summary>
/// The receiver's warm-up: a sample request decoded as the entry points decode it; then the instance's container
/// confirmed through the storage resilience pipeline, over the connection this opens, and the sample request taken
/// through the app's own <see cref="OrderWriter"/> into a store whose every write storage refuses
/// (<see cref="BlobOrderStore.RefusingEveryWrite"/>). Nothing is stored.
/// </summary>
public sealed class ReceiverWarmUp(
    IServiceProvider services,
    BlobOrderStore store,
    StoredOrdersTelemetry telemetry,
    [FromKeyedServices(StorageResilience.Key)] ResiliencePipeline resilience,
    IOptions<JsonOptions> json,
    IOptions<ReadinessOptions> readiness,
    ILogger<ReceiverWarmUp> logger) : StartupWarmUp(readiness, logger)
{
    private List<InboundOrder> _sample = [];

    protected override async Task RunHotPathsAsync(CancellationToken cancellationToken)
    {
        _sample = await SampleRequest.DecodeAsync(json.Value.SerializerOptions, cancellationToken);

        // The handler's whole graph (the store, its blob client), built as a request builds it.
        using var scope = services.CreateScope();
        _ = scope.ServiceProvider.GetRequiredService<IOrderHandler>();
    }

    protected override async Task OpenConnectionsAsync(CancellationToken cancellationToken)
    {
        await resilience.ExecuteAsync(async ct => await store.CheckAsync(ct), cancellationToken);
        await new OrderWriter(store.RefusingEveryWrite(), telemetry)
            .HandleAsync(_sample, MessagingModel.PubSubBulk, new RequestProgress(_sample.Count), cancellationToken);
    }
}
