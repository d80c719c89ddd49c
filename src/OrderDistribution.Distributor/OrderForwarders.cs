using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.Distributor;

/// <summary>
/// The way out of each model, chosen once at start: an order leaves in the model it arrived in, a bulk request as bulk
/// publishes, a single request as one publish, a binding request through an output binding.
/// </summary>
public sealed class OrderForwarders(IOrderForwarder bulk, IOrderForwarder single, IOrderForwarder binding)
{
    public IOrderForwarder For(MessagingModel model) => model switch
    {
        MessagingModel.PubSubBulk => bulk,
        MessagingModel.PubSubSingle => single,
        MessagingModel.Bindings => binding,
        _ => throw new ArgumentOutOfRangeException(nameof(model), model, "No way out for this messaging model."),
    };

    /// <summary>The three ways out over <paramref name="sidecar"/>: the app's own, or the warm-up's dry one.</summary>
    public static OrderForwarders Over(ISidecarOutbound sidecar, IServiceProvider services) => new(
        new BulkPublishForwarder(ActivatorUtilities.CreateInstance<BulkOrderPublisher>(services, sidecar)),
        ActivatorUtilities.CreateInstance<SinglePublishForwarder>(services, sidecar),
        ActivatorUtilities.CreateInstance<OutputBindingForwarder>(services, sidecar));
}
