using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace OrderDistribution.Dapr;

/// <summary>
/// Publishes any number of entries to a topic in bulk requests that each fit the byte budget, so that a
/// large batch never fails as a whole with "the message is too large".
/// </summary>
public sealed partial class BulkOrderPublisher(
    IDaprPublisher sidecar, IOptions<MessagingOptions> options, ILogger<BulkOrderPublisher> logger)
{
    private const int ConcurrentRequests = 4;

    /// <param name="progress">Told the number of entries each finished request carried.</param>
    /// <returns>The ids of the entries that were not published.</returns>
    public async Task<IReadOnlySet<string>> PublishAsync(
        string topic, IReadOnlyList<BulkPublishEntry> entries, CancellationToken cancellationToken,
        IProgress<int>? progress = null)
    {
        var pubSubName = options.Value.PubSubName;
        var maxBytes = options.Value.MaxBulkPublishBytes;
        var failed = new HashSet<string>();
        await Parallel.ForEachAsync(
            BulkPublishBudget.Chunk(entries, maxBytes),
            new ParallelOptions { MaxDegreeOfParallelism = ConcurrentRequests, CancellationToken = cancellationToken },
            async (chunk, ct) =>
            {
                var chunkFailed = await PublishChunkAsync(pubSubName, topic, chunk, maxBytes, ct);
                lock (failed)
                {
                    failed.UnionWith(chunkFailed);
                }

                progress?.Report(chunk.Count);
            });

        return failed;
    }

    private async Task<IEnumerable<string>> PublishChunkAsync(
        string pubSubName, string topic, List<BulkPublishEntry> chunk, int maxBytes, CancellationToken cancellationToken)
    {
        try
        {
            if (chunk.Count == 1 && BulkPublishBudget.CostOf(chunk[0]) > maxBytes)
            {
                // Too large for any batch, yet it may still fit the broker's single-message limit.
                await sidecar.PublishAsync(pubSubName, topic, chunk[0].Payload, cancellationToken);
                return [];
            }

            var failed = await sidecar.BulkPublishAsync(pubSubName, topic, chunk, cancellationToken);
            foreach (var entry in failed)
            {
                LogEntryFailed(topic, entry.EntryId, entry.Error);
            }

            return failed.Select(f => f.EntryId);
        }
        catch (Exception e) when (DaprPublishFailure.IsTransient(e, cancellationToken))
        {
            LogChunkFailed(e, topic, chunk.Count);
            return chunk.Select(c => c.EntryId);
        }
    }

    [LoggerMessage(LogLevel.Warning, "Publish to {Topic} failed for entry {EntryId}: {Error}")]
    private partial void LogEntryFailed(string topic, string entryId, string error);

    [LoggerMessage(LogLevel.Error, "Bulk publish of {Count} entries to {Topic} failed")]
    private partial void LogChunkFailed(Exception exception, string topic, int count);
}
