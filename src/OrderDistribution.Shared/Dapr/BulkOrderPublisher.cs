using System.Collections.Concurrent;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Polly;

namespace OrderDistribution.Dapr;

/// <summary>
/// Publishes any number of entries to a topic in bulk requests that each fit the byte budget, so that a
/// large batch never fails as a whole with "the message is too large". Entries the sidecar names as failed
/// are tried again on their own; an entry counts as published only when the sidecar confirmed it.
/// </summary>
public sealed class BulkOrderPublisher(
    IDaprPublisher sidecar,
    IOptions<MessagingOptions> options,
    [FromKeyedServices(DaprSidecarResilience.Key)] ResiliencePipeline resilience)
{
    private const int ConcurrentRequests = 4;

    /// <param name="progress">Told the number of entries each finished request carried.</param>
    /// <param name="published">Told each entry the sidecar confirmed, as soon as it did.</param>
    /// <param name="failed">Told each entry that failed for good, with the reason.</param>
    /// <returns>The ids of the entries that were not confirmed as published, by the sidecar's answer or by the deadline.</returns>
    public async Task<IReadOnlySet<string>> PublishAsync(
        string topic, IReadOnlyList<BulkPublishEntry> entries, CancellationToken cancellationToken,
        IProgress<int>? progress = null, Action<string>? published = null, Action<string, string>? failed = null)
    {
        var pubSubName = options.Value.PubSubName;
        var maxBytes = options.Value.MaxBulkPublishBytes;
        var confirmed = new ConcurrentDictionary<string, byte>(StringComparer.Ordinal);
        try
        {
            await Parallel.ForEachAsync(
                BulkPublishBudget.Chunk(entries, maxBytes),
                new ParallelOptions { MaxDegreeOfParallelism = ConcurrentRequests, CancellationToken = cancellationToken },
                async (chunk, ct) =>
                {
                    foreach (var entryId in await PublishChunkAsync(pubSubName, topic, chunk, maxBytes, failed, ct))
                    {
                        confirmed.TryAdd(entryId, 0);
                        published?.Invoke(entryId);
                    }

                    progress?.Report(chunk.Count);
                });
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Past the deadline: what was confirmed stays confirmed, the rest is not published.
        }

        return entries.Select(e => e.EntryId).Where(id => !confirmed.ContainsKey(id)).ToHashSet(StringComparer.Ordinal);
    }

    /// <returns>The ids of the entries the sidecar confirmed.</returns>
    private async Task<IEnumerable<string>> PublishChunkAsync(
        string pubSubName, string topic, List<BulkPublishEntry> chunk, int maxBytes, Action<string, string>? failed,
        CancellationToken cancellationToken)
    {
        var remaining = chunk;
        try
        {
            if (chunk.Count == 1 && BulkPublishBudget.CostOf(chunk[0]) > maxBytes)
            {
                // Too large for any batch, yet it may still fit the broker's single-message limit.
                var entry = chunk[0];
                await resilience.ExecuteAsync(
                    async ct => await sidecar.PublishAsync(pubSubName, topic, entry.Payload, entry.ContentType, ct),
                    cancellationToken);
                remaining = [];
            }
            else
            {
                await resilience.ExecuteAsync(async ct =>
                {
                    var failed = await sidecar.BulkPublishAsync(pubSubName, topic, remaining, maxBytes, ct);
                    if (failed.Count > 0)
                    {
                        var failedIds = failed.Select(f => f.EntryId).ToHashSet(StringComparer.Ordinal);
                        remaining = remaining.Where(e => failedIds.Contains(e.EntryId)).ToList();
                        throw new BulkPublishPartlyFailedException(failed);
                    }

                    remaining = [];
                }, cancellationToken);
            }
        }
        catch (BulkPublishPartlyFailedException e)
        {
            foreach (var entry in e.Failed)
            {
                failed?.Invoke(entry.EntryId, $"publish to {topic} failed: {entry.Error}");
            }
        }
        catch (Exception e) when (DaprPublishFailure.IsTransient(e, cancellationToken))
        {
            foreach (var entry in remaining)
            {
                failed?.Invoke(entry.EntryId, $"bulk publish of {remaining.Count} entries to {topic} failed: {e.Message}");
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The deadline passed: whatever was not confirmed yet stays unconfirmed.
        }

        var unconfirmed = remaining.Select(e => e.EntryId).ToHashSet(StringComparer.Ordinal);
        return chunk.Select(e => e.EntryId).Where(id => !unconfirmed.Contains(id));
    }
}

/// <summary>The sidecar named some entries of a bulk publish as failed: those are tried again, and only those.</summary>
public sealed class BulkPublishPartlyFailedException(IReadOnlyList<FailedBulkEntry> failed)
    : Exception($"{failed.Count} entries were not published, first {failed[0].EntryId}: {failed[0].Error}")
{
    public IReadOnlyList<FailedBulkEntry> Failed { get; } = failed;
}
