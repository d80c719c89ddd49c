namespace OrderDistribution.Messaging.Outbound;

/// <summary>The bindings model: each order is one call to its destination's output binding.</summary>
public sealed class OutputBindingForwarder(SidecarOrderCall call, ISidecarOutbound sidecar) : IOrderForwarder
{
    private readonly Func<string, byte[], CancellationToken, Task> _create = (binding, payload, ct) =>
        sidecar.CreateBindingAsync(binding, payload, ct);

    public async Task ForwardAsync(IReadOnlyList<RoutedOrder> orders, IOrderProgress progress,
        CancellationToken cancellationToken)
    {
        foreach (var order in orders)
        {
            await call.SendAsync(order, order.Destination.OutputBinding, _create, progress, cancellationToken);
        }
    }
}
