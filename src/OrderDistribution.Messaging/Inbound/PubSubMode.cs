namespace OrderDistribution.Messaging.Inbound;

/// <summary>Whether the app subscribes one message per request or in bulk.</summary>
public enum PubSubMode
{
    Bulk,
    Single,
}
