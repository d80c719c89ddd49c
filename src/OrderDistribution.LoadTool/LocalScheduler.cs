using System.Collections.Concurrent;
using System.Globalization;
using OrderDistribution.Dapr;
using OrderDistribution.Orders;

namespace OrderDistribution.LoadTool;

public enum ComponentsModel
{
    Pubsub,
    Bindings,
}

/// <summary>
/// Puts orders on the ingress queue through a local sidecar (the distributor's, in the multi-app run):
/// bulk publishes within the byte budget for the pubsub model, the ingress output binding for bindings.
/// </summary>
public sealed class LocalScheduler(BulkOrderPublisher bulkPublisher, IDaprPublisher sidecar, string ingressTopic, string ingressOutputBinding)
{
    private const int ConcurrentBindingCalls = 16;

    /// <returns>The ids of the orders that could not be scheduled.</returns>
    public async Task<IReadOnlyList<long>> ScheduleAsync(
        IReadOnlyList<Order> orders, ComponentsModel model, IProgress<int>? scheduled, CancellationToken cancellationToken)
    {
        var entries = orders
            .Select(o => new BulkPublishEntry(o.OrderId.ToString(CultureInfo.InvariantCulture), OrderJson.Serialize(o)))
            .ToList();
        var done = 0;
        var progress = new Progress<int>(count => scheduled?.Report(Interlocked.Add(ref done, count)));

        var failed = model == ComponentsModel.Pubsub
            ? await bulkPublisher.PublishAsync(ingressTopic, entries, cancellationToken, progress)
            : await InvokeBindingAsync(entries, progress, cancellationToken);
        return failed.Select(id => long.Parse(id, CultureInfo.InvariantCulture)).Order().ToList();
    }

    private async Task<IReadOnlySet<string>> InvokeBindingAsync(
        List<BulkPublishEntry> entries, IProgress<int> progress, CancellationToken cancellationToken)
    {
        var failed = new ConcurrentBag<string>();
        await Parallel.ForEachAsync(entries,
            new ParallelOptions { MaxDegreeOfParallelism = ConcurrentBindingCalls, CancellationToken = cancellationToken },
            async (entry, ct) =>
            {
                try
                {
                    await sidecar.InvokeOutputBindingAsync(ingressOutputBinding, entry.Payload, ct);
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
