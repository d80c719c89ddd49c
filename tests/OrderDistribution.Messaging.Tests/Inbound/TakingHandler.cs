using System.Collections.Concurrent;
using OrderDistribution.Messaging.Inbound;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>Takes every order it is handed, marking it done, and keeps it.</summary>
public sealed class TakingHandler : IOrderHandler
{
    public ConcurrentQueue<InboundOrder> Orders { get; } = new();

    public Task HandleAsync(IReadOnlyList<InboundOrder> orders, MessagingModel model, IOrderProgress progress,
        CancellationToken cancellationToken)
    {
        foreach (var order in orders)
        {
            Orders.Enqueue(order);
            progress.MarkDone(order.EntryId);
        }

        return Task.CompletedTask;
    }
}
