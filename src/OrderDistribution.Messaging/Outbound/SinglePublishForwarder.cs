using Microsoft.Extensions.Options;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Pub/sub, one message at a time: each order is one publish to its destination's queue, as it is (raw payload).
/// </summary>
public sealed class SinglePublishForwarder : IOrderForwarder
{
    private readonly SidecarOrderCall _call;
    private readonly Func<string, byte[], CancellationToken, Task> _publish;

    public SinglePublishForwarder(SidecarOrderCall call, ISidecarOutbound sidecar, IOptions<MessagingOptions> messaging)
    {
        _call = call;
        var pubSubName = messaging.Value.PubSubName;
        var metadata = RawPayload();
        _publish = (topic, payload, ct) =>
            sidecar.PublishAsync(pubSubName, topic, payload, "application/json", metadata, ct);
    }

    /// <summary>
    /// The metadata of a single publish: the order as it is, not wrapped in a CloudEvent. Made when a forwarder is
    /// built, not held in a static field, so that each mutation test run reads its own.
    /// </summary>
    public static Dictionary<string, string> RawPayload() => new() { ["rawPayload"] = "true" };

    public async Task ForwardAsync(IReadOnlyList<RoutedOrder> orders, IOrderProgress progress,
        CancellationToken cancellationToken)
    {
        foreach (var order in orders)
        {
            await _call.SendAsync(order, order.Destination.Queue, _publish, progress, cancellationToken);
        }
    }
}
