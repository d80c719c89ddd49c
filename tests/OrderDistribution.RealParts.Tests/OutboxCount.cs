using Azure;
using Azure.Storage.Blobs;

namespace OrderDistribution.RealParts.Tests;

/// <summary>The blobs in an outbox, counted while the load tool may be clearing it.</summary>
public static class OutboxCount
{
    /// <summary>
    /// The blobs in <paramref name="outbox"/> now; 0 while it does not exist. The load tool's clear deletes and makes
    /// the container again, so it may go between two pages of the listing: it is then empty, not an error.
    /// </summary>
    public static async Task<int> CountAsync(BlobContainerClient outbox, CancellationToken ct)
    {
        var count = 0;
        try
        {
            await foreach (var _ in outbox.GetBlobsAsync(cancellationToken: ct))
            {
                count++;
            }

            return count;
        }
        catch (RequestFailedException e) when (e.ErrorCode is "ContainerNotFound" or "ContainerBeingDeleted")
        {
            return 0;
        }
    }
}
