namespace OrderDistribution.Messaging.Inbound;

/// <summary>What an app does with the orders the sidecar delivers.</summary>
public interface IOrderHandler
{
    /// <summary>Publishes or stores the orders, marking each in <paramref name="progress"/> once it is done.</summary>
    /// <param name="cancellationToken">Cancelled at the request's deadline, or when the sidecar hangs up.</param>
    Task HandleAsync(
        IReadOnlyList<InboundOrder> orders, MessagingModel model, IOrderProgress progress,
        CancellationToken cancellationToken);
}
