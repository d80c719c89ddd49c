using Microsoft.Extensions.Options;
using Microsoft.WindowsAzure.Storage.Blob;
using OrderDistribution.Orders;
using OrderDistribution.Storage;

namespace OrderDistribution.Receiver;

/// <summary>Stores each order as blob <c>{OrderId}.json</c> in the instance's outbox container.</summary>
public sealed class BlobOrderStore(IOptions<StorageOptions> storage, IOptions<ReceiverOptions> receiver)
    : IOrderStore, IDisposable
{
    private readonly SemaphoreSlim _opening = new(1, 1);
    private Task<CloudBlobContainer>? _container;

    public async Task SaveAsync(Order order, CancellationToken cancellationToken)
    {
        var container = await ContainerAsync(cancellationToken);
        var blob = container.GetBlockBlobReference(OrderBlob.NameOf(order));
        blob.Properties.ContentType = "application/json";
        var json = OrderJson.Serialize(order);
        await blob.UploadFromByteArrayAsync(json, 0, json.Length, null, null, null, cancellationToken);
    }

    public void Dispose() => _opening.Dispose();

    /// <summary>Opens the container once; a failed attempt is tried again by the next order.</summary>
    private async Task<CloudBlobContainer> ContainerAsync(CancellationToken cancellationToken)
    {
        if (_container is { IsCompletedSuccessfully: true } opened)
        {
            return opened.Result;
        }

        await _opening.WaitAsync(cancellationToken);
        try
        {
            if (_container is null || _container.IsFaulted || _container.IsCanceled)
            {
                _container = OpenAsync(cancellationToken);
            }
        }
        finally
        {
            _opening.Release();
        }

        return await _container;
    }

    private async Task<CloudBlobContainer> OpenAsync(CancellationToken cancellationToken)
    {
        var client = await BlobClientFactory.CreateAsync(storage.Value, cancellationToken);
        var container = client.GetContainerReference(receiver.Value.ContainerName);
        await container.CreateIfNotExistsAsync(BlobContainerPublicAccessType.Off, null, null, cancellationToken);
        return container;
    }
}
