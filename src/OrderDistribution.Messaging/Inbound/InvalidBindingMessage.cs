namespace OrderDistribution.Messaging.Inbound;

/// <summary>What an input binding request that is not a valid order is answered.</summary>
public enum InvalidBindingMessage
{
    /// <summary>400: the broker keeps it and dead-letters it after its delivery limit (Azure Service Bus).</summary>
    Reject,

    /// <summary>
    /// 200 after the drop is logged: for brokers with no delivery limit, which would requeue it forever (RabbitMQ).
    /// </summary>
    Drop,
}
