using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>
/// Puts orders on the ingress queue through a sidecar: bulk publishes within the byte budget for the
/// pubsub model, the ingress output binding for bindings (the sidecar's HTTP API, <see cref="SidecarOutputBindings"/>:
/// the messages carry no transport header, and a valid trace context or none). Locally the sidecar is the distributor's in
/// the multi-app run. For Azure it is a sidecar of the load tool's own with an Azure Service Bus
/// component; there every message carries one scheduled enqueue time, so that all orders become
/// visible at the same instant.
/// </summary>
public sealed class SidecarScheduler(BulkOrderPublisher bulkPublisher, IOutputBindings bindings, string ingressTopic, string ingressOutputBinding)
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
    /// Schedules valid orders and poison alike, in id order (the poison is mixed into the burst): a poison entry
    /// goes out as its own bytes, so "not JSON at all" reaches the apps as it is.
    /// </summary>
    /// <param name="enqueueAt">When the broker is to make the messages visible; pubsub model only.</param>
    public async Task<ScheduleOutcome> ScheduleAsync(
        OrderSet set, ComponentsModel model, DateTimeOffset? enqueueAt, IProgress<int>? scheduled,
        CancellationToken cancellationToken)
    {
        if (enqueueAt is not null && model != ComponentsModel.Pubsub)
        {
            throw new ArgumentException("A scheduled enqueue time needs the pubsub model: bindings cannot carry it.");
        }

        var metadata = enqueueAt is { } at
            ? new Dictionary<string, string> { [ScheduledEnqueueTimeKey] = at.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ssZ", CultureInfo.InvariantCulture) }
            : null;
        var entries = set.Orders
            .Select(o => (Id: o.OrderId, Payload: OrderJson.Serialize(o)))
            .Concat(set.Poison.Select(p => (p.Id, Payload: Encoding.UTF8.GetBytes(p.Payload))))
            .OrderBy(e => e.Id)
            .Select(e => new OutboundMessage(e.Id.ToString(CultureInfo.InvariantCulture), e.Payload))
            .ToList();
        var done = 0;
        var progress = new Progress<int>(count => scheduled?.Report(Interlocked.Add(ref done, count)));

        string? firstFailure = null;
        void Failed(string reason) => Interlocked.CompareExchange(ref firstFailure, FailureText.FirstLine(reason), null);

        var failed = model == ComponentsModel.Pubsub
            ? await PublishAsync(entries, metadata, progress, Failed, cancellationToken)
            : await InvokeBindingAsync(entries, progress, e => Failed(FailureText.Reason(e)), cancellationToken);
        return new ScheduleOutcome(entries.Count, [.. failed.Select(id => long.Parse(id, CultureInfo.InvariantCulture)).Order()], firstFailure);
    }

    /// <summary>The bulk publisher's answer, or, when it gave up on the whole burst (a fault it does not retry), every entry it had not confirmed.</summary>
    private async Task<IReadOnlySet<string>> PublishAsync(
        List<OutboundMessage> entries, Dictionary<string, string>? metadata, IProgress<int> progress, Action<string> failedBecause,
        CancellationToken cancellationToken)
    {
        var confirmed = new ConcurrentDictionary<string, byte>(StringComparer.Ordinal);
        try
        {
            return await bulkPublisher.PublishAsync(ingressTopic, entries, cancellationToken, metadata, progress,
                published: id => confirmed.TryAdd(id, 0), failed: (_, reason) => failedBecause(reason));
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested)
        {
            failedBecause(FailureText.Reason(e));
            return entries.Select(m => m.EntryId).Where(id => !confirmed.ContainsKey(id)).ToHashSet(StringComparer.Ordinal);
        }
    }

    private async Task<IReadOnlySet<string>> InvokeBindingAsync(
        List<OutboundMessage> entries, IProgress<int> progress, Action<Exception> failedBecause, CancellationToken cancellationToken)
    {
        var failed = new ConcurrentBag<string>();
        await Parallel.ForEachAsync(entries,
            new ParallelOptions { MaxDegreeOfParallelism = BindingCallsInFlight, CancellationToken = cancellationToken },
            async (entry, ct) =>
            {
                try
                {
                    await bindings.CreateAsync(ingressOutputBinding, entry.Payload, ct);
                }
                catch (Exception e) when (!ct.IsCancellationRequested)
                {
                    // Whatever the cause (a full broker, a refused token), this order did not go; the first cause is named.
                    failed.Add(entry.EntryId);
                    failedBecause(e);
                }

                progress.Report(1);
            });
        return failed.ToHashSet();
    }
}
