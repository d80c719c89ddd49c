using System.Collections.Concurrent;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>
/// Puts orders on the ingress queue through a sidecar: bulk publishes within the byte budget for the
/// pubsub model, the ingress output binding for bindings (the sidecar's HTTP API, <see cref="SidecarOutputBindings"/>:
/// the messages carry no transport header, and a valid trace context or none). Locally the sidecar is the distributor's
/// in the multi-app run. For Azure it is a sidecar of the load tool's own with an Azure Service Bus component; there
/// every message carries one scheduled enqueue time, so that all orders become visible at the same instant.
/// </summary>
public sealed class SidecarScheduler(
    BulkOrderPublisher bulkPublisher, IOutputBindings bindings, string ingressTopic, string ingressOutputBinding)
{
    /// <summary>The message metadata Dapr's Azure Service Bus component turns into a scheduled enqueue time.</summary>
    public const string ScheduledEnqueueTimeKey = "ScheduledEnqueueTimeUtc";

    /// <summary>
    /// Output binding calls in flight at once (bindings model: one call per order). The bulk publisher bounds its own
    /// requests; a binding call carries one order, so more of them run at once to keep the sidecar busy, yet few
    /// enough that a burst never queues thousands of calls in the sidecar's HTTP server.
    /// </summary>
    public const int BindingCallsInFlight = 16;

    /// <summary>
    /// Entries the scheduler serializes and hands to the bulk publisher at once (pubsub model): a few megabytes, and
    /// many requests under the byte budget, so the publisher's requests in flight stay busy across a chunk.
    /// </summary>
    public const int PublishChunk = 5_000;

    /// <summary>
    /// Schedules valid orders and poison alike, the poison mixed into the burst by id (in id order for a file in id
    /// order, as 'generate' writes it): a poison entry goes out as its own bytes, so "not JSON at all" reaches the apps
    /// as it is. The orders are serialized as they are published, never all at once.
    /// </summary>
    /// <param name="enqueueAt">When the broker is to make the messages visible; pubsub model only.</param>
    public async Task<ScheduleOutcome> ScheduleAsync(
        IAsyncEnumerable<Order> orders, IReadOnlyList<PoisonOrder> poison, MessagingModel model,
        DateTimeOffset? enqueueAt, IProgress<int>? scheduled, CancellationToken cancellationToken)
    {
        if (enqueueAt is not null && !model.IsPubSub())
        {
            throw new ArgumentException("A scheduled enqueue time needs the pubsub model: bindings cannot carry it.");
        }

        var metadata = enqueueAt is { } at
            ? new Dictionary<string, string>
            {
                [ScheduledEnqueueTimeKey] =
                    at.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ssZ", CultureInfo.InvariantCulture),
            }
            : null;
        var attempted = 0;
        var entries = Entries(orders, poison, cancellationToken).Select(entry =>
        {
            Interlocked.Increment(ref attempted);
            return entry;
        });
        var done = 0;
        var progress = new Progress<int>(count => scheduled?.Report(Interlocked.Add(ref done, count)));

        string? firstFailure = null;
        void Failed(string reason) =>
            Interlocked.CompareExchange(ref firstFailure, FailureText.FirstLine(reason), null);

        var failed = model.IsPubSub()
            ? await PublishAsync(entries, metadata, progress, Failed, cancellationToken)
            : await InvokeBindingAsync(entries, progress, e => Failed(FailureText.Reason(e)), cancellationToken);
        var failedIds = failed.Select(id => long.Parse(id, CultureInfo.InvariantCulture)).Order();
        return new ScheduleOutcome(attempted, [.. failedIds], firstFailure);
    }

    /// <summary>
    /// The orders as they come, each serialized as it is reached, with each poison entry before the first order of a
    /// higher id.
    /// </summary>
    private static async IAsyncEnumerable<OutboundMessage> Entries(
        IAsyncEnumerable<Order> orders, IReadOnlyList<PoisonOrder> poison,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var poisonLeft = new Queue<PoisonOrder>(poison.OrderBy(p => p.Id));
        await foreach (var order in orders.WithCancellation(cancellationToken))
        {
            while (poisonLeft.TryPeek(out var next) && next.Id < order.OrderId)
            {
                yield return Entry(poisonLeft.Dequeue());
            }

            yield return new OutboundMessage(
                order.OrderId.ToString(CultureInfo.InvariantCulture), OrderJson.Serialize(order));
        }

        while (poisonLeft.TryDequeue(out var next))
        {
            yield return Entry(next);
        }
    }

    private static OutboundMessage Entry(PoisonOrder poison) =>
        new(poison.Id.ToString(CultureInfo.InvariantCulture), Encoding.UTF8.GetBytes(poison.Payload));

    /// <summary>
    /// The bulk publisher's answers, chunk by chunk; when it gives up on a chunk (a fault it does not retry), every
    /// entry of it not confirmed and every entry after it, as it gave up on the whole burst before chunks.
    /// </summary>
    private async Task<IReadOnlySet<string>> PublishAsync(
        IAsyncEnumerable<OutboundMessage> entries, Dictionary<string, string>? metadata, IProgress<int> progress,
        Action<string> failedBecause, CancellationToken cancellationToken)
    {
        var failed = new HashSet<string>(StringComparer.Ordinal);
        var gaveUp = false;
        await foreach (var chunk in entries.Chunk(PublishChunk).WithCancellation(cancellationToken))
        {
            if (gaveUp)
            {
                failed.UnionWith(chunk.Select(m => m.EntryId));
                continue;
            }

            var confirmed = new ConcurrentDictionary<string, byte>(StringComparer.Ordinal);
            try
            {
                failed.UnionWith(await bulkPublisher.PublishAsync(
                    ingressTopic, chunk, cancellationToken, metadata, progress,
                    published: id => confirmed.TryAdd(id, 0), failed: (_, reason) => failedBecause(reason),
                    dropped: (_, reason) => failedBecause(reason)));
            }
            catch (Exception e) when (!cancellationToken.IsCancellationRequested)
            {
                failedBecause(FailureText.Reason(e));
                failed.UnionWith(chunk.Select(m => m.EntryId).Where(id => !confirmed.ContainsKey(id)));
                gaveUp = true;
            }
        }

        return failed;
    }

    private async Task<IReadOnlySet<string>> InvokeBindingAsync(
        IAsyncEnumerable<OutboundMessage> entries, IProgress<int> progress, Action<Exception> failedBecause,
        CancellationToken cancellationToken)
    {
        var failed = new ConcurrentBag<string>();
        await Parallel.ForEachAsync(entries,
            new ParallelOptions
            {
                MaxDegreeOfParallelism = BindingCallsInFlight,
                CancellationToken = cancellationToken,
            },
            async (entry, ct) =>
            {
                try
                {
                    await bindings.CreateAsync(ingressOutputBinding, entry.Payload, ct);
                }
                catch (Exception e) when (!ct.IsCancellationRequested)
                {
                    // Whatever the cause (a full broker, a refused token), this order did not go; the first cause is
                    // named.
                    failed.Add(entry.EntryId);
                    failedBecause(e);
                }

                progress.Report(1);
            });
        return failed.ToHashSet();
    }
}
