using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Contracts;
using Polly;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// One order's call to the sidecar, the same on every way out that sends orders one at a time: an order too large for
/// good is dropped before any call (<see cref="OrderSizeLimit"/>); the call goes through the sidecar's resilience
/// pipeline; a failure is judged by <see cref="SidecarFailures"/>: wrong for this order for good drops it, anything else
/// (a refusal of every order too) leaves it to be delivered again.
/// </summary>
public sealed class SidecarOrderCall(
    OrderSizeLimit sizeLimit,
    SidecarFailures failures,
    [FromKeyedServices(SidecarResilience.Key)] ResiliencePipeline resilience)
{
    /// <param name="to">The destination's name (topic or output binding), passed to <paramref name="send"/>.</param>
    /// <param name="send">The call: the destination's name, the order's JSON, the attempt's cancellation.</param>
    public async Task SendAsync(
        RoutedOrder order, string to, Func<string, byte[], CancellationToken, Task> send, IOrderProgress progress,
        CancellationToken cancellationToken)
    {
        var payload = OrderJson.Serialize(order.Order);
        if (sizeLimit.RefusalOf(payload.Length) is { } refusal)
        {
            progress.MarkDropped(order.EntryId, $"order {order.Order.OrderId} to {to}: {refusal}");
            return;
        }

        try
        {
            // A callback of object, as on every per-order path (DependencyResilience).
            await resilience.ExecuteAsync<object?>(async ct =>
            {
                await send(to, payload, ct);
                return null;
            }, cancellationToken);
            failures.Succeeded();
            progress.MarkDone(order.EntryId);
        }
        catch (Exception e) when (SidecarFailure.IsExpected(e, cancellationToken))
        {
            if (failures.Judge(e) == SidecarFailureKind.RejectsOrder)
            {
                progress.MarkDropped(order.EntryId, $"order {order.Order.OrderId} to {to}: the sidecar refuses it for good: {SidecarFailure.Reason(e)}");
            }
            else
            {
                progress.MarkFailed(order.EntryId, $"forwarding order {order.Order.OrderId} to {to} failed: {SidecarFailure.Reason(e)}");
            }
        }
    }
}
