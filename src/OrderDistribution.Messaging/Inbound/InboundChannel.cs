namespace OrderDistribution.Messaging.Inbound;

/// <summary>The way an order reached the app; the distributor forwards it the same way.</summary>
public enum InboundChannel
{
    BulkSubscription,
    Subscription,
    InputBinding,
}
