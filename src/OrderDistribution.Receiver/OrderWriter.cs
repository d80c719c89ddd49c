using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Inbound;

namespace OrderDistribution.Receiver;

/// <summary>
/// Writes the orders of a request to the store. How many writes run at once is the store's per-process
/// bound, shared by every request; an order whose write fails stays undone and is answered RETRY.
/// </summary>
public sealed class OrderWriter(IOrderStore store, StoredOrdersTelemetry telemetry) : IOrderHandler
{
    public async Task HandleAsync(
        IReadOnlyList<InboundOrder> orders, MessagingModel model, IOrderProgress progress,
        CancellationToken cancellationToken)
    {
        var stored = 0;
        await Task.WhenAll(orders.Select(async inbound =>
        {
            try
            {
                await store.SaveAsync(inbound.Order, cancellationToken);
                progress.MarkDone(inbound.EntryId);
                Interlocked.Increment(ref stored);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // The deadline passed, or the sidecar hung up: the order stays undone.
            }
            catch (Exception e)
            {
                progress.MarkFailed(inbound.EntryId, $"storing order {inbound.Order.OrderId} failed: {e.Message}");
            }
        }));
        telemetry.Stored(stored, model);
    }
}
