using Azure.Storage.Blobs;
using OrderDistribution.Contracts;

namespace OrderDistribution.Receiver.Tests;

/// <summary>Reads what the receiver wrote, straight from storage.</summary>
public static class Outbox
{
    public static async Task<int> CountAsync(string connectionString, string container)
    {
        var blobs = Container(connectionString, container);
        if (!await blobs.ExistsAsync())
        {
            return 0;
        }

        var count = 0;
        await foreach (var _ in blobs.GetBlobsAsync())
        {
            count++;
        }

        return count;
    }

    public static async Task<Dictionary<string, Order>> ReadAsync(string connectionString, string container)
    {
        var blobs = Container(connectionString, container);
        var found = new Dictionary<string, Order>();
        if (!await blobs.ExistsAsync())
        {
            return found;
        }

        await foreach (var blob in blobs.GetBlobsAsync())
        {
            var content = await blobs.GetBlobClient(blob.Name).DownloadContentAsync();
            found[blob.Name] = OrderJson.Deserialize(content.Value.Content.ToArray());
        }

        return found;
    }

    public static BlobContainerClient Container(string connectionString, string container) =>
        new BlobServiceClient(connectionString).GetBlobContainerClient(container);
}
