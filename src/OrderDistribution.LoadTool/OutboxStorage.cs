using Microsoft.WindowsAzure.Storage.Blob;
using OrderDistribution.Storage;

namespace OrderDistribution.LoadTool;

/// <summary>A blob of an outbox as the watcher sees it.</summary>
public sealed record OutboxBlob(string Container, string Name, DateTimeOffset LastModified);

/// <summary>The two outbox containers and <c>test-data</c> in the storage the receivers write to.</summary>
public sealed class OutboxStorage(CloudBlobClient client, IReadOnlyList<string> outboxes)
{
    public const string TestDataContainer = "test-data";
    public const string OrdersBlob = "orders.json";

    public static readonly string[] DefaultOutboxes = ["express-outbox", "standard-outbox"];

    public IReadOnlyList<string> Outboxes => outboxes;

    public static async Task<OutboxStorage> OpenAsync(StorageOptions options, IReadOnlyList<string> outboxes, CancellationToken cancellationToken) =>
        new(await BlobClientFactory.CreateAsync(options, cancellationToken), outboxes);

    public async Task<List<OutboxBlob>> ListAsync(CancellationToken cancellationToken)
    {
        var found = new List<OutboxBlob>();
        foreach (var name in outboxes)
        {
            var container = client.GetContainerReference(name);
            if (!await container.ExistsAsync(null, null, cancellationToken))
            {
                continue;
            }

            BlobContinuationToken? token = null;
            do
            {
                var page = await container.ListBlobsSegmentedAsync(
                    null, true, BlobListingDetails.None, 5_000, token, null, null, cancellationToken);
                found.AddRange(page.Results.OfType<CloudBlob>()
                    .Select(b => new OutboxBlob(name, b.Name, b.Properties.LastModified ?? DateTimeOffset.MinValue)));
                token = page.ContinuationToken;
            }
            while (token is not null);
        }

        return found;
    }

    /// <summary>Deletes every blob of the outboxes; the containers stay, so the receivers keep writing.</summary>
    public async Task<int> ClearAsync(IProgress<int>? progress, CancellationToken cancellationToken)
    {
        var blobs = await ListAsync(cancellationToken);
        var deleted = 0;
        await Parallel.ForEachAsync(blobs, new ParallelOptions { MaxDegreeOfParallelism = 32, CancellationToken = cancellationToken },
            async (blob, ct) =>
            {
                await client.GetContainerReference(blob.Container).GetBlobReference(blob.Name)
                    .DeleteIfExistsAsync(DeleteSnapshotsOption.IncludeSnapshots, null, null, null, ct);
                progress?.Report(Interlocked.Increment(ref deleted));
            });
        return deleted;
    }

    public async Task UploadTestDataAsync(byte[] ordersJson, CancellationToken cancellationToken)
    {
        var container = client.GetContainerReference(TestDataContainer);
        await container.CreateIfNotExistsAsync(BlobContainerPublicAccessType.Off, null, null, cancellationToken);
        var blob = container.GetBlockBlobReference(OrdersBlob);
        blob.Properties.ContentType = "application/json";
        await blob.UploadFromByteArrayAsync(ordersJson, 0, ordersJson.Length, null, null, null, cancellationToken);
    }
}
