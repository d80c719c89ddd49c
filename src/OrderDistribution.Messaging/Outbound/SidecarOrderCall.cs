using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Contracts;
using Polly;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// One order's call to the sidecar, the same on every way out that sends orders one at a time: an order too large for
/// good is dropped before any call (<see cref="OrderSizeLimit"/>); the call goes through the sidecar's resilience
/// pipeline; a failure is judged by <see cref="SidecarFailureJudge"/>: wrong for this order for good drops it, anything
/// else (a refusal of every order too) leaves it to be delivered again.
/// </summary>
public sealed class SidecarOrderCall(
    OrderSizeLimit sizeLimit,
    SidecarFailureJudge failures,
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

        var (failure, reason) = await CallAsync(to, ct => send(to, payload, ct), cancellationToken);
        switch (failure)
        {
            case null:
                progress.MarkDone(order.EntryId);
                break;
            case SidecarFailureKind.RejectsOrder:
                progress.MarkDropped(
                    order.EntryId, $"order {order.Order.OrderId} to {to}: the sidecar refuses it for good: {reason}");
                break;
            default:
                progress.MarkFailed(order.EntryId, $"forwarding order {order.Order.OrderId} to {to} failed: {reason}");
                break;
        }
    }

    /// <summary>
    /// One call for one payload through the sidecar's resilience pipeline, its failure judged by
    /// <see cref="SidecarFailureJudge"/>: every way out that sends a payload alone ends here.
    /// </summary>
    /// <param name="to">The destination's name (topic or output binding), which a refusal of every order is kept
    /// for.</param>
    /// <returns>No failure when the sidecar confirmed the call; else what the failure says about the payload, and
    /// why.</returns>
    /// <exception cref="OperationCanceledException">The caller's own cancellation: not the sidecar's
    /// failure.</exception>
    public async Task<(SidecarFailureKind? Failure, string? Reason)> CallAsync(
        string to, Func<CancellationToken, Task> call, CancellationToken cancellationToken)
    {
        try
        {
            // A callback of object, as on every per-order path (DependencyResilience).
            await resilience.ExecuteAsync<object?>(async ct =>
            {
                await call(ct);
                return null;
            }, cancellationToken);
            failures.Succeeded(to);
            return (null, null);
        }
        catch (Exception e) when (SidecarFailure.IsExpected(e, cancellationToken))
        {
            return (failures.Judge(e, to), SidecarFailure.Reason(e));
        }
    }
}
