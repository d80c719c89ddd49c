using OrderDistribution.TestSupport.Brokers;
using RabbitMQ.Client;

namespace OrderDistribution.Benchmarks;

/// <summary>A queue setting <see cref="BindingsBroker"/> compares: the queue's type and the prefetch limits.</summary>
internal sealed record BindingsBrokerSetting(string Name, string? QueueType, ushort GlobalPrefetch,
    ushort? DefaultConsumerPrefetch);

/// <summary>
/// The node, the bindings component and the setting a run drives, and the queues it declares as the component does.
/// </summary>
internal sealed record BindingsBrokerTarget(RabbitMqServer Rabbit, TestSupport.Components.DaprComponent Component,
    BindingsBrokerSetting Setting, string Prefix)
{
    public ConnectionFactory Factory { get; } = new()
    {
        Uri = new Uri(Rabbit.AmqpUri, LocalRabbitMq.VhostOf(Component)),
        AutomaticRecoveryEnabled = false,
    };

    public string Queue(string scenario) => $"{Prefix}-{scenario}";

    // As the component declares it: its durable/exclusive/deleteWhenUnused, no arguments (so the vhost's default
    // type); the classic settings name their type, which the component cannot.
    public Task<QueueDeclareOk> DeclareAsync(IChannel channel, string queue) =>
        channel.QueueDeclareAsync(
            queue,
            durable: Component["durable"] == "true",
            exclusive: Component["exclusive"] == "true",
            autoDelete: Component["deleteWhenUnused"] == "true",
            arguments: Setting.QueueType is null ? [] : new Dictionary<string,
                object?>
            { ["x-queue-type"] = Setting.QueueType });
}
