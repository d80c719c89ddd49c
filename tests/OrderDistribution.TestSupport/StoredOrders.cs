using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using OrderDistribution.Contracts;

namespace OrderDistribution.TestSupport;

/// <summary>Blobs written the way a receiver writes them, for tests that play the receivers.</summary>
public static class StoredOrders
{
    /// <summary>
    /// The order's JSON as <c>{OrderId}.json</c> in <paramref name="container"/>, its stored time as metadata
    /// <c>storedat</c>.
    /// </summary>
    public static async Task StoreAsync(
        BlobServiceClient client, string container, Order order, DateTimeOffset storedAt, bool createContainer = true)
    {
        var outbox = client.GetBlobContainerClient(container);
        if (createContainer)
        {
            await outbox.CreateIfNotExistsAsync();
        }

        await outbox.GetBlobClient(OrderBlob.NameOf(order)).UploadAsync(
            BinaryData.FromString(TestOrders.Json(order)),
            new BlobUploadOptions
            {
                Metadata = new Dictionary<string,
                string>
                { [OrderBlob.StoredAtMetadata] = OrderBlob.FormatStoredAt(storedAt) }
            });
    }
}
