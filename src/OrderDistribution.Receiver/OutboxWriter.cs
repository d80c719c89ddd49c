using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using OrderDistribution.Dapr;

namespace OrderDistribution.Receiver;

/// <summary>
/// Writes the orders of a delivery to the store, a bounded number at a time. An order whose write fails
/// is reported for retry; the others are done.
/// </summary>
public sealed partial class OutboxWriter(
    IOrderStore store, IOptions<ReceiverOptions> options, ILogger<OutboxWriter> logger) : IOrderHandler
{
    public async Task<IReadOnlySet<string>> HandleAsync(
        IReadOnlyList<InboundOrder> orders, InboundChannel channel, CancellationToken cancellationToken)
    {
        var failed = new ConcurrentBag<string>();
        await Parallel.ForEachAsync(
            orders,
            new ParallelOptions
            {
                MaxDegreeOfParallelism = options.Value.MaxConcurrentWrites,
                CancellationToken = cancellationToken,
            },
            async (inbound, ct) =>
            {
                try
                {
                    await store.SaveAsync(inbound.Order, ct);
                }
                catch (Exception e) when (!ct.IsCancellationRequested)
                {
                    LogWriteFailed(e, inbound.Order.OrderId);
                    failed.Add(inbound.EntryId);
                }
            });

        LogStored(orders.Count - failed.Count, orders.Count, options.Value.ContainerName);
        return failed.ToHashSet();
    }

    [LoggerMessage(LogLevel.Information, "Stored {StoredCount} of {Count} orders in {Container}")]
    private partial void LogStored(int storedCount, int count, string container);

    [LoggerMessage(LogLevel.Warning, "Storing order {OrderId} failed; it will be retried")]
    private partial void LogWriteFailed(Exception exception, long orderId);
}
