using OrderDistribution.LoadTool.Store;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>Every blob of every outbox, page after page, to check what a command left in storage.</summary>
internal static class Listing
{
    public static async Task<List<OutboxBlob>> AllAsync(this IOutboxReader storage)
    {
        var found = new List<OutboxBlob>();
        foreach (var outbox in storage.Outboxes)
        {
            string? continuation = null;
            do
            {
                var page = await storage.ListPageAsync(outbox, "", continuation, OutboxStorage.PageSize,
                    storedTimes: true, default);
                found.AddRange(page.Blobs);
                continuation = page.Continuation;
            }
            while (continuation is not null);
        }

        return found;
    }
}
