using OrderDistribution.Dapr;

namespace OrderDistribution.Receiver;

/// <summary>
/// Writes the orders of a delivery to the store. How many writes run at once is the store's per-process
/// bound, shared by every delivery; an order whose write fails stays undone and is answered RETRY.
/// </summary>
public sealed partial class OutboxWriter(IOrderStore store, ILogger<OutboxWriter> logger) : IOrderHandler
{
    public Task HandleAsync(
        IReadOnlyList<InboundOrder> orders, InboundChannel channel, DeliveryProgress progress, CancellationToken cancellationToken) =>
        Task.WhenAll(orders.Select(async inbound =>
        {
            try
            {
                await store.SaveAsync(inbound.Order, cancellationToken);
                progress.MarkDone(inbound.EntryId);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // The deadline passed, or the sidecar hung up: the order stays undone.
            }
            catch (Exception e)
            {
                LogWriteFailed(inbound.Order.OrderId, e.Message);
            }
        }));

    [LoggerMessage(LogLevel.Warning, "Storing order {OrderId} failed; it will be retried: {Error}")]
    private partial void LogWriteFailed(long orderId, string error);
}
