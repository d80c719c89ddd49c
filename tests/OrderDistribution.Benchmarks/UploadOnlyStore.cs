using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Specialized;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;
using OrderDistribution.Receiver;
using OrderDistribution.Storage;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// A receiver's store that only uploads: each order sent as <see cref="BlobOrderStore"/> sends it (the same client,
/// headers and metadata), without the process's storage pipeline and the tracking of uploads around it. What that
/// path costs is the stored order's cost less this one's.
/// </summary>
internal sealed class UploadOnlyStore(IOptions<StorageOptions> storage, IOptions<ReceiverOptions> receiver)
    : IOrderStore
{
    private readonly BlobContainerClient _container = BlobClientFactory
        .Create(storage.Value, TimeSpan.FromMinutes(1))
        .GetBlobContainerClient(receiver.Value.ContainerName);

    public async Task SaveAsync(Order order, CancellationToken cancellationToken)
    {
        using var json = new MemoryStream(OrderJson.Serialize(order), writable: false);
        await _container.GetBlockBlobClient(OrderBlob.NameOf(order))
            .UploadAsync(json, BlobOrderStore.UploadOptions(DateTimeOffset.UtcNow), cancellationToken);
    }
}
