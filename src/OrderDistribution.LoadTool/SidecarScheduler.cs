using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using Dapr.Client;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.LoadTool;

public enum ComponentsModel
{
    Pubsub,
    Bindings,
}

/// <summary>
/// Puts orders on the ingress queue through a sidecar: bulk publishes within the byte budget for the
/// pubsub model, the ingress output binding for bindings. Locally the sidecar is the distributor's in
/// the multi-app run. For Azure it is a sidecar of the load tool's own with an Azure Service Bus
/// component; there every message carries one scheduled enqueue time, so that all orders become
/// visible at the same instant.
/// </summary>
public sealed class SidecarScheduler(BulkOrderPublisher bulkPublisher, DaprClient dapr, string ingressTopic, string ingressOutputBinding)
{
    /// <summary>The message metadata Dapr's Azure Service Bus component turns into a scheduled enqueue time.</summary>
    public const string ScheduledEnqueueTimeKey = "ScheduledEnqueueTimeUtc";

    private const int ConcurrentBindingCalls = 16;

    /// <returns>The ids of the orders that could not be scheduled.</returns>
    /// <param name="enqueueAt">When the broker is to make the messages visible; pubsub model only.</param>
    public Task<IReadOnlyList<long>> ScheduleAsync(
        IReadOnlyList<Order> orders, ComponentsModel model, DateTimeOffset? enqueueAt, IProgress<int>? scheduled,
        CancellationToken cancellationToken) =>
        ScheduleAsync(OrderSet.ValidOnly(orders), model, enqueueAt, scheduled, cancellationToken);

    /// <summary>
    /// Schedules valid orders and poison alike, in id order (the poison is mixed into the burst): a poison entry
    /// goes out as its own bytes, so "not JSON at all" reaches the apps as it is.
    /// </summary>
    /// <returns>The ids of the entries that could not be scheduled.</returns>
    public async Task<IReadOnlyList<long>> ScheduleAsync(
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

        var failed = model == ComponentsModel.Pubsub
            ? await bulkPublisher.PublishAsync(ingressTopic, entries, cancellationToken, metadata, progress)
            : await InvokeBindingAsync(entries, progress, cancellationToken);
        return failed.Select(id => long.Parse(id, CultureInfo.InvariantCulture)).Order().ToList();
    }

    private async Task<IReadOnlySet<string>> InvokeBindingAsync(
        List<OutboundMessage> entries, IProgress<int> progress, CancellationToken cancellationToken)
    {
        var failed = new ConcurrentBag<string>();
        await Parallel.ForEachAsync(entries,
            new ParallelOptions { MaxDegreeOfParallelism = ConcurrentBindingCalls, CancellationToken = cancellationToken },
            async (entry, ct) =>
            {
                try
                {
                    await dapr.InvokeBindingAsync(new BindingRequest(ingressOutputBinding, "create") { Data = entry.Payload }, ct);
                }
                catch (Exception e) when (DaprPublishFailure.IsTransient(e, ct))
                {
                    failed.Add(entry.EntryId);
                }

                progress.Report(1);
            });
        return failed.ToHashSet();
    }
}
