namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// One way out (bulk publish, single publish, output binding): sends each order on to its destination and marks in
/// the progress what became of it. An order is done when the sidecar confirmed it; one it can never take (too large,
/// refused for good) is dropped; any other failure leaves it to be delivered again.
/// </summary>
public interface IOrderForwarder
{
    /// <param name="cancellationToken">Cancelled at the request's deadline: what is not marked by then is answered
    /// RETRY.</param>
    Task ForwardAsync(IReadOnlyList<RoutedOrder> orders, IOrderProgress progress, CancellationToken cancellationToken);
}
