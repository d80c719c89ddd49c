using System.Collections.Concurrent;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Polly;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Publishes any number of raw payloads to a topic in bulk requests that each fit the byte budget, so that a
/// large batch never fails as a whole with "the message is too large". Entries the sidecar names as failed are
/// tried again on their own; an entry counts as published only when the sidecar confirmed it. An entry that can never
/// be published (larger than <see cref="OrderSizeLimit"/>, or refused for good) is dropped, never retried.
/// </summary>
/// <remarks>
/// Runtimes before 1.17 answer a partly failed bulk publish with one error for the whole request, though the entries
/// the broker took before the refusal are in it: trying the request again publishes those twice, at least once each,
/// as the order's blob name absorbs (<c>docs/runtimes.md</c>, "Retries of a partly failed bulk publish: at least
/// once").
/// </remarks>
public sealed class BulkOrderPublisher(
    ISidecarOutbound sidecar,
    IOptions<MessagingOptions> options,
    OrderSizeLimit sizeLimit,
    SidecarFailureJudge failures,
    SidecarOrderCall call,
    [FromKeyedServices(SidecarResilience.Key)] ResiliencePipeline resilience)
{
    /// <summary>
    /// Bulk requests of one delivery in flight at once. A bulk delivery of 250 orders is one or two requests per topic
    /// under the byte budget, so 4 lets both topics' chunks go together; every call also waits for a slot of the
    /// per-process bound (<c>Dapr:MaxConcurrentRequests</c>), which is what limits the sidecar's load.
    /// </summary>
    private const int ConcurrentRequests = 4;

    /// <param name="metadata">Sent with every request and every entry: <c>rawPayload</c> and <c>maxBulkPubBytes</c> are
    /// set here.</param>
    /// <param name="progress">Told the number of entries each finished request carried.</param>
    /// <param name="published">Told each entry the sidecar confirmed, as soon as it did.</param>
    /// <param name="failed">Told each entry that failed for now (to be tried again later), with the reason.</param>
    /// <param name="dropped">Told each entry that can never be published, with the reason.</param>
    /// <returns>The ids of the entries that were not confirmed as published, by the sidecar's answer or by the
    /// deadline.</returns>
    public async Task<IReadOnlySet<string>> PublishAsync(
        string topic, IReadOnlyList<OutboundMessage> messages, CancellationToken cancellationToken,
        IReadOnlyDictionary<string, string>? metadata = null, IProgress<int>? progress = null,
        Action<string>? published = null, Action<string, string>? failed = null, Action<string, string>? dropped = null)
    {
        var pubSubName = options.Value.PubSubName;
        var maxBytes = options.Value.MaxBulkPublishBytes;
        var requestMetadata = RequestMetadata(maxBytes, metadata);
        var outcome = new ChunkOutcome(pubSubName, topic, requestMetadata, failed, dropped);
        var sendable = new List<OutboundMessage>(messages.Count);
        foreach (var message in messages)
        {
            if (sizeLimit.RefusalOf(message.Payload.Length) is { } refusal)
            {
                dropped?.Invoke(message.EntryId, refusal);
                progress?.Report(1);
            }
            else
            {
                sendable.Add(message);
            }
        }

        var confirmed =
            new ConcurrentDictionary<string, byte>(Environment.ProcessorCount, sendable.Count, StringComparer.Ordinal);
        try
        {
            await Parallel.ForEachAsync(
                BulkPublishBudget.Chunk(sendable, maxBytes, requestMetadata),
                new ParallelOptions
                {
                    MaxDegreeOfParallelism = ConcurrentRequests,
                    CancellationToken = cancellationToken,
                },
                async (chunk, ct) =>
                {
                    foreach (var entryId in await PublishChunkAsync(chunk, maxBytes, outcome, ct))
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

        return messages.Select(m => m.EntryId)
            .Where(id => !confirmed.ContainsKey(id))
            .ToHashSet(StringComparer.Ordinal);
    }

    /// <summary>
    /// The metadata of every bulk request and entry: the caller's, with <c>rawPayload</c> and <c>maxBulkPubBytes</c>
    /// set. Azure Service Bus sizes its all-or-nothing batch by <c>maxBulkPubBytes</c>, so broker batch and chunks
    /// agree.
    /// </summary>
    public static Dictionary<string, string> RequestMetadata(int maxBulkPublishBytes,
        IReadOnlyDictionary<string, string>? metadata = null) =>
        new(metadata ?? new Dictionary<string, string>())
        {
            ["rawPayload"] = "true",
            ["maxBulkPubBytes"] = maxBulkPublishBytes.ToString(System.Globalization.CultureInfo.InvariantCulture),
        };

    /// <returns>The ids of the entries the sidecar confirmed.</returns>
    private async Task<IEnumerable<string>> PublishChunkAsync(
        List<OutboundMessage> chunk, int maxBytes, ChunkOutcome outcome, CancellationToken cancellationToken)
    {
        if (chunk.Count == 1 && BulkPublishBudget.CostOf(chunk[0], outcome.Metadata) > maxBytes)
        {
            return await PublishAloneAsync(chunk[0], outcome, cancellationToken);
        }

        var remaining = chunk;
        try
        {
            await resilience.ExecuteAsync(async ct =>
            {
                var failedEntries = await sidecar.BulkPublishAsync(
                    outcome.PubSubName, outcome.Topic, remaining, outcome.Metadata, ct);
                var stillFailing = outcome.DropRefused(failedEntries);
                remaining = remaining.Where(m => stillFailing.ContainsKey(m.EntryId)).ToList();
                if (remaining.Count > 0)
                {
                    throw new BulkPublishPartlyFailedException(stillFailing.Values.ToList());
                }
            }, cancellationToken);
            failures.Succeeded(outcome.Topic);
        }
        catch (BulkPublishPartlyFailedException e)
        {
            failures.Succeeded(outcome.Topic);
            foreach (var entry in e.Failed)
            {
                outcome.Failed?.Invoke(entry.EntryId, $"publish to {outcome.Topic} failed: {entry.Error}");
            }
        }
        catch (Exception e) when (SidecarFailure.IsExpected(e, cancellationToken))
        {
            var reason =
                $"bulk publish of {remaining.Count} entries to {outcome.Topic} failed: {SidecarFailure.Reason(e)}";
            switch (failures.Judge(e, outcome.Topic))
            {
                case SidecarFailureKind.RejectsOrder when remaining.Count > 1:
                    // Refused for good, but for which entry? Halves find it in a few calls; the rest go through.
                    var halves = remaining.Chunk((remaining.Count + 1) / 2).Select(half => half.ToList()).ToList();
                    var confirmedInHalves = new List<string>();
                    foreach (var half in halves)
                    {
                        confirmedInHalves.AddRange(await PublishChunkAsync(half, maxBytes, outcome, cancellationToken));
                    }

                    return chunk.Select(m => m.EntryId)
                        .Except(remaining.Select(m => m.EntryId))
                        .Where(id => !outcome.WasDropped(id))
                        .Concat(confirmedInHalves);
                case SidecarFailureKind.RejectsOrder:
                    // Entries an earlier try of this chunk confirmed are still reported published, below.
                    outcome.Drop(remaining[0].EntryId, $"the sidecar refuses it for good: {SidecarFailure.Reason(e)}");
                    remaining = [];
                    break;
                default:
                    foreach (var message in remaining)
                    {
                        outcome.Failed?.Invoke(message.EntryId, reason);
                    }

                    break;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The deadline passed: whatever was not confirmed yet stays unconfirmed.
        }

        var unconfirmed = remaining.Select(m => m.EntryId).ToHashSet(StringComparer.Ordinal);
        return chunk.Select(m => m.EntryId).Where(id => !unconfirmed.Contains(id) && !outcome.WasDropped(id));
    }

    /// <summary>
    /// An entry too large for any batch, yet within the broker's single-message limit (<see cref="OrderSizeLimit"/>):
    /// one publish of its own, made and judged as every payload sent alone is (<see cref="SidecarOrderCall"/>).
    /// </summary>
    /// <returns>Its id when the sidecar confirmed it.</returns>
    private async Task<IEnumerable<string>> PublishAloneAsync(
        OutboundMessage message, ChunkOutcome outcome, CancellationToken cancellationToken)
    {
        try
        {
            var (failure, reason) = await call.CallAsync(
                outcome.Topic,
                ct => sidecar.PublishAsync(
                    outcome.PubSubName,
                    outcome.Topic,
                    message.Payload,
                    "application/octet-stream",
                    outcome.Metadata,
                    ct),
                cancellationToken);
            switch (failure)
            {
                case null:
                    return [message.EntryId];
                case SidecarFailureKind.RejectsOrder:
                    outcome.Drop(message.EntryId, $"the sidecar refuses it for good: {reason}");
                    return [];
                default:
                    outcome.Failed?.Invoke(message.EntryId,
                        $"bulk publish of 1 entries to {outcome.Topic} failed: {reason}");
                    return [];
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The deadline passed before the sidecar confirmed it.
            return [];
        }
    }

    /// <summary>Where one publish goes and whom it tells of entries that fail or are dropped.</summary>
    private sealed class ChunkOutcome(
        string pubSubName, string topic, Dictionary<string, string> metadata, Action<string, string>? failed,
            Action<string, string>? dropped)
    {
        private readonly ConcurrentDictionary<string, byte> _dropped = new(StringComparer.Ordinal);

        public string PubSubName => pubSubName;

        public string Topic => topic;

        public Dictionary<string, string> Metadata => metadata;

        public Action<string, string>? Failed => failed;

        public void Drop(string entryId, string reason)
        {
            if (_dropped.TryAdd(entryId, 0))
            {
                dropped?.Invoke(entryId, reason);
            }
        }

        public bool WasDropped(string entryId) => _dropped.ContainsKey(entryId);

        /// <summary>Drops the entries the broker refused for good.</summary>
        /// <returns>The failed entries still to publish, by id: those that failed for now.</returns>
        public Dictionary<string, FailedEntry> DropRefused(IReadOnlyList<FailedEntry> failedEntries)
        {
            var stillFailing = new Dictionary<string, FailedEntry>(StringComparer.Ordinal);
            foreach (var entry in failedEntries)
            {
                if (SidecarFailure.ClassifyEntryError(entry.Error) == SidecarFailureKind.RejectsOrder)
                {
                    Drop(entry.EntryId, $"the broker refuses it for good: {entry.Error}");
                }
                else
                {
                    stillFailing.TryAdd(entry.EntryId, entry);
                }
            }

            return stillFailing;
        }
    }
}
