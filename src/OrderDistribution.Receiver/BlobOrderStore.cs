using Microsoft.Extensions.Options;
using Microsoft.WindowsAzure.Storage;
using Microsoft.WindowsAzure.Storage.Blob;
using OrderDistribution.Hosting;
using OrderDistribution.Orders;
using OrderDistribution.Storage;
using Polly;

namespace OrderDistribution.Receiver;

/// <summary>
/// Stores each order as blob <c>{OrderId}.json</c> in the instance's outbox container, through the process's
/// storage pipeline (one bound on writes in flight for all deliveries). It writes only into a container it
/// has seen exist: one that vanishes is created again, and one it could not reach is confirmed again first.
/// It is also the receiver's readiness probe: storage is ready when the container can be confirmed.
/// </summary>
public sealed partial class BlobOrderStore(
    IOptions<StorageOptions> storage,
    IOptions<ReceiverOptions> receiver,
    [FromKeyedServices(StorageResilience.Key)] ResiliencePipeline resilience,
    TimeProvider time,
    ILogger<BlobOrderStore> logger) : IOrderStore, IReadinessProbe, IDisposable
{
    private readonly SemaphoreSlim _confirming = new(1, 1);
    private CloudBlobClient? _client;
    private volatile CloudBlobContainer? _confirmed;

    public string Name => $"storage container {receiver.Value.ContainerName}";

    public async Task SaveAsync(Order order, CancellationToken cancellationToken) =>
        await resilience.ExecuteAsync(async ct => await WriteAsync(order, ct), cancellationToken);

    public async Task CheckAsync(CancellationToken cancellationToken)
    {
        try
        {
            await ConfirmAsync(cancellationToken);
        }
        catch
        {
            _confirmed = null;
            throw;
        }
    }

    public void Dispose() => _confirming.Dispose();

    private async Task WriteAsync(Order order, CancellationToken cancellationToken)
    {
        var container = _confirmed ?? await ConfirmAsync(cancellationToken);
        var blob = container.GetBlockBlobReference(OrderBlob.NameOf(order));
        blob.Properties.ContentType = "application/json";
        blob.Metadata[OrderBlob.StoredAtMetadata] = OrderBlob.FormatStoredAt(time.GetUtcNow());
        var json = OrderJson.Serialize(order);
        try
        {
            await blob.UploadFromByteArrayAsync(json, 0, json.Length, null, null, null, cancellationToken);
        }
        catch (StorageException e) when (cancellationToken.IsCancellationRequested)
        {
            // The storage client reports cancellation as a StorageException; the pipeline needs to see it as
            // cancellation to tell its own attempt timeout from the delivery's deadline.
            throw new OperationCanceledException(e.Message, e, cancellationToken);
        }
        catch (StorageException e) when (StorageFailure.IsContainerNotFound(e))
        {
            _confirmed = null;
            LogContainerMissing(container.Name);
            throw;
        }
    }

    /// <summary>
    /// Sees that the container exists, creating it when it does not, once at a time for all callers. It asks
    /// first: a create of an existing container answers 409, which telemetry would count as a failure every
    /// time readiness looks.
    /// </summary>
    private async Task<CloudBlobContainer> ConfirmAsync(CancellationToken cancellationToken)
    {
        await _confirming.WaitAsync(cancellationToken);
        try
        {
            _client ??= await BlobClientFactory.CreateAsync(storage.Value, cancellationToken);
            var container = _client.GetContainerReference(receiver.Value.ContainerName);
            if (!await container.ExistsAsync(null, null, cancellationToken))
            {
                await container.CreateIfNotExistsAsync(BlobContainerPublicAccessType.Off, null, null, cancellationToken);
            }

            return _confirmed = container;
        }
        catch (StorageException e) when (cancellationToken.IsCancellationRequested)
        {
            throw new OperationCanceledException(e.Message, e, cancellationToken);
        }
        finally
        {
            _confirming.Release();
        }
    }

    [LoggerMessage(Microsoft.Extensions.Logging.LogLevel.Warning, "Container {Container} is gone; creating it again")]
    private partial void LogContainerMissing(string container);
}

/// <summary>The resilience pipeline of the receiver's storage calls, one per process.</summary>
public static class StorageResilience
{
    public const string Key = "storage";

    public static ResiliencePipelineBuilder AddStorageStrategies(this ResiliencePipelineBuilder builder, DependencyLimits limits, ILogger logger) =>
        builder.AddDependencyStrategies(limits, StorageFailure.IsTransient, logger, "storage",
            // A container deleted under the receiver says nothing about storage's health: create it, write again.
            isRetriedWithoutCountingAsFailure: StorageFailure.IsContainerNotFound);
}
