using System.Collections.Concurrent;
using OrderDistribution.Orders;

namespace OrderDistribution.Dapr;

/// <summary>An order as it arrived, under the id its outcome is reported with.</summary>
public sealed record InboundOrder(string EntryId, Order Order);

/// <summary>The way an order reached the app; the distributor forwards it the same way.</summary>
public enum InboundChannel
{
    BulkSubscription,
    Subscription,
    InputBinding,
}

/// <summary>
/// Which entries of one delivery are done for certain: published, or stored. The delivery is answered from
/// it when the handler finishes or its deadline passes, whichever comes first; an entry not marked by then
/// is answered RETRY.
/// </summary>
public sealed class DeliveryProgress
{
    private readonly ConcurrentDictionary<string, byte> _done = new(StringComparer.Ordinal);
    private string? _firstFailure;

    public void MarkDone(string entryId) => _done.TryAdd(entryId, 0);

    public bool IsDone(string entryId) => _done.ContainsKey(entryId);

    /// <summary>
    /// An entry could not be done now (it stays undone and is answered RETRY). The delivery logs one line for all of
    /// its failures, naming the first.
    /// </summary>
    public void MarkFailed(string entryId, string reason) =>
        Interlocked.CompareExchange(ref _firstFailure, $"{entryId}: {reason}", null);

    public string? FirstFailure => _firstFailure;
}

/// <summary>What an app does with the orders the sidecar delivers.</summary>
public interface IOrderHandler
{
    /// <summary>Publishes or stores the orders, marking each in <paramref name="progress"/> once it is done.</summary>
    /// <param name="cancellationToken">Cancelled at the delivery's deadline, or when the sidecar hangs up.</param>
    Task HandleAsync(
        IReadOnlyList<InboundOrder> orders, InboundChannel channel, DeliveryProgress progress, CancellationToken cancellationToken);
}

/// <summary>The routes the sidecar delivers to: <c>/{topic}-bulk</c>, <c>/{topic}-single</c> and <c>/{input binding}</c>.</summary>
public sealed record OrderRoutes(string Topic, string InputBinding)
{
    public string Bulk => $"/{Topic}-bulk";

    public string Single => $"/{Topic}-single";

    public string Binding => $"/{InputBinding}";
}
