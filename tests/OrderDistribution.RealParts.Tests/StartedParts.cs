namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// Where the started brokers and storage are, as the sidecars reach them and as the test process does.
/// </summary>
/// <param name="Components">The addresses the rendered components point the sidecars at.</param>
/// <param name="RedisForTests">host:port of Redis from the test process; null when the model needs no Redis.</param>
/// <param name="RabbitMqForTests">AMQP URI of RabbitMQ from the test process; null when the model needs no
/// RabbitMQ.</param>
/// <param name="StorageConnectionString">Azurite, from the test process (where the apps run).</param>
/// <param name="RabbitMqControl">Runs rabbitmqctl on that RabbitMQ (e.g. <c>trace_on -p orders</c>); null without
/// one.</param>
public sealed record StartedParts(
    ComponentAddresses Components,
    string? RedisForTests,
    Uri? RabbitMqForTests,
    string StorageConnectionString,
    Func<string[], CancellationToken, Task>? RabbitMqControl = null);
