using Microsoft.AspNetCore.Http.Json;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.ServiceDefaults;
using OrderDistribution.Storage;
using Polly;

namespace OrderDistribution.Receiver;

/// <summary>
/// The receiver's warm-up: sample orders decoded as the entry points decode them and made into what
/// <see cref="BlobOrderStore"/> writes (the blob's name, content and metadata), then the instance's container confirmed
/// and a sample written on a condition storage refuses, through the storage resilience pipeline, over the connection
/// this opens. Nothing is stored.
/// </summary>
public sealed class ReceiverWarmUp(
    IServiceProvider services,
    BlobOrderStore store,
    [FromKeyedServices(StorageResilience.Key)] ResiliencePipeline resilience,
    TimeProvider time,
    IOptions<JsonOptions> json,
    IOptions<ReadinessOptions> readiness,
    ILogger<ReceiverWarmUp> logger) : StartupWarmUp(readiness, logger)
{
    protected override async Task RunHotPathsAsync(CancellationToken cancellationToken)
    {
        foreach (var order in await SampleDelivery.DecodeAsync(json.Value.SerializerOptions, cancellationToken))
        {
            _ = (OrderBlob.NameOf(order), OrderJson.Serialize(order), OrderBlob.FormatStoredAt(time.GetUtcNow()));
        }

        // The handler's whole graph (the store, its blob client), built as a delivery builds it.
        using var scope = services.CreateScope();
        _ = scope.ServiceProvider.GetRequiredService<IOrderHandler>();
    }

    protected override async Task OpenConnectionsAsync(CancellationToken cancellationToken)
    {
        await resilience.ExecuteAsync(async ct => await store.CheckAsync(ct), cancellationToken);
        await store.WarmUpWriteAsync(SampleDelivery.Orders[0], cancellationToken);
    }
}
