using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.WindowsAzure.Storage;
using Microsoft.WindowsAzure.Storage.Blob;
using OrderDistribution.Orders;

namespace OrderDistribution.Receiver.Tests;

/// <summary>A receiver instance in-process, storing into the given blob endpoint.</summary>
public sealed class ReceiverFactory(string connectionString, string instance = "express", params (string Key, string? Value)[] settings)
    : WebApplicationFactory<Program>
{
    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseSetting("INSTANCE", instance);
        builder.UseSetting("Storage:ConnectionString", connectionString);
        builder.UseSetting("Storage:RequestTimeout", "00:00:05");
        foreach (var (key, value) in settings)
        {
            builder.UseSetting(key, value);
        }
    }
}

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

        var page = await blobs.ListBlobsSegmentedAsync(null, true, BlobListingDetails.None, null, null, null, null);
        return page.Results.Count();
    }

    public static async Task<Dictionary<string, Order>> ReadAsync(string connectionString, string container)
    {
        var blobs = Container(connectionString, container);
        var found = new Dictionary<string, Order>();
        if (!await blobs.ExistsAsync())
        {
            return found;
        }

        BlobContinuationToken? token = null;
        do
        {
            var page = await blobs.ListBlobsSegmentedAsync(null, true, BlobListingDetails.None, null, token, null, null);
            foreach (var blob in page.Results.OfType<CloudBlockBlob>())
            {
                var bytes = new byte[blob.Properties.Length];
                await blob.DownloadToByteArrayAsync(bytes, 0);
                found[blob.Name] = OrderJson.Deserialize(bytes);
            }

            token = page.ContinuationToken;
        }
        while (token is not null);

        return found;
    }

    private static CloudBlobContainer Container(string connectionString, string container) =>
        CloudStorageAccount.Parse(connectionString).CreateCloudBlobClient().GetContainerReference(container);
}
