using System.Collections.Concurrent;
using Dapr.Client;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OrderDistribution.Messaging.Inbound;
using Polly;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Publishes any number of raw payloads to a topic in bulk requests that each fit the byte budget, so that a
/// large batch never fails as a whole with "the message is too large". Entries the sidecar names as failed are
/// tried again on their own; an entry counts as published only when the sidecar confirmed it.
/// </summary>
public sealed class BulkOrderPublisher(
    SidecarBulkPublisher bulk,
    DaprClient dapr,
    IOptions<MessagingOptions> options,
    [FromKeyedServices(DaprSidecarResilience.Key)] ResiliencePipeline resilience)
{
    private const int ConcurrentRequests = 4;

    /// <param name="metadata">Sent with every request and every entry: <c>rawPayload</c> and <c>maxBulkPubBytes</c> are set here.</param>
    /// <param name="progress">Told the number of entries each finished request carried.</param>
    /// <param name="published">Told each entry the sidecar confirmed, as soon as it did.</param>
    /// <param name="failed">Told each entry that failed for good, with the reason.</param>
    /// <returns>The ids of the entries that were not confirmed as published, by the sidecar's answer or by the deadline.</returns>
    public async Task<IReadOnlySet<string>> PublishAsync(
        string topic, IReadOnlyList<OutboundMessage> messages, CancellationToken cancellationToken,
        IReadOnlyDictionary<string, string>? metadata = null, IProgress<int>? progress = null,
        Action<string>? published = null, Action<string, string>? failed = null)
    {
        var pubSubName = options.Value.PubSubName;
        var maxBytes = options.Value.MaxBulkPublishBytes;
        // Azure Service Bus sizes its all-or-nothing batch by maxBulkPubBytes: broker batch and chunks agree.
        var requestMetadata = new Dictionary<string, string>(metadata ?? new Dictionary<string, string>())
        {
            ["rawPayload"] = "true",
            ["maxBulkPubBytes"] = maxBytes.ToString(System.Globalization.CultureInfo.InvariantCulture),
        };
        var confirmed = new ConcurrentDictionary<string, byte>(StringComparer.Ordinal);
        try
        {
            await Parallel.ForEachAsync(
                BulkPublishBudget.Chunk(messages, maxBytes, requestMetadata),
                new ParallelOptions { MaxDegreeOfParallelism = ConcurrentRequests, CancellationToken = cancellationToken },
                async (chunk, ct) =>
                {
                    foreach (var entryId in await PublishChunkAsync(pubSubName, topic, chunk, requestMetadata, maxBytes, failed, ct))
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

        return messages.Select(m => m.EntryId).Where(id => !confirmed.ContainsKey(id)).ToHashSet(StringComparer.Ordinal);
    }

    /// <returns>The ids of the entries the sidecar confirmed.</returns>
    private async Task<IEnumerable<string>> PublishChunkAsync(
        string pubSubName, string topic, List<OutboundMessage> chunk, Dictionary<string, string> metadata, int maxBytes,
        Action<string, string>? failed, CancellationToken cancellationToken)
    {
        var remaining = chunk;
        try
        {
            if (chunk.Count == 1 && BulkPublishBudget.CostOf(chunk[0], metadata) > maxBytes)
            {
                // Too large for any batch, yet it may still fit the broker's single-message limit.
                await resilience.ExecuteAsync(
                    async ct => await dapr.PublishByteEventAsync(pubSubName, topic, chunk[0].Payload, "application/octet-stream", metadata, ct),
                    cancellationToken);
                remaining = [];
            }
            else
            {
                await resilience.ExecuteAsync(async ct =>
                {
                    var failedEntries = await bulk.PublishAsync(pubSubName, topic, remaining, metadata, ct);
                    if (failedEntries.Count > 0)
                    {
                        var failedIds = failedEntries.Select(f => f.EntryId).ToHashSet(StringComparer.Ordinal);
                        remaining = remaining.Where(m => failedIds.Contains(m.EntryId)).ToList();
                        throw new BulkPublishPartlyFailedException(failedEntries);
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
            foreach (var message in remaining)
            {
                failed?.Invoke(message.EntryId, $"bulk publish of {remaining.Count} entries to {topic} failed: {DaprPublishFailure.Reason(e)}");
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The deadline passed: whatever was not confirmed yet stays unconfirmed.
        }

        var unconfirmed = remaining.Select(m => m.EntryId).ToHashSet(StringComparer.Ordinal);
        return chunk.Select(m => m.EntryId).Where(id => !unconfirmed.Contains(id));
    }
}
