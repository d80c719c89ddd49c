using OrderDistribution.Contracts;
using OrderDistribution.Messaging;
using RabbitMQ.Client;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// What reaches a broker message besides the order: daprd copies the gRPC call's headers into a binding's metadata,
/// which bindings.rabbitmq writes as message headers (docs/dapr-sidecar.md, "Measured on the current code"). Read from
/// RabbitMQ's firehose on the vhost: every message the distributor publishes, as published, whatever the receivers'
/// sidecars take off their queues meanwhile.
/// </summary>
[Trait("Category", "RealParts")]
public sealed class BrokerHeaderTests
{
    private const int Orders = 1_000;

    [Fact(Timeout = RealTrio.TestTimeoutMilliseconds)]
    public async Task The_distributors_messages_on_rabbitmq_carry_no_transport_header_and_no_token()
    {
        var ct = TestContext.Current.CancellationToken;
        var token = $"real-parts-{Guid.NewGuid():N}";
        await using var trio = await RealTrio.StartAsync(MessagingModel.Bindings, token);
        using var load = new OrderLoad(trio);
        await trio.Parts.RabbitMqControl!(["trace_on", "-p", LocalProcessBackend.BindingsVhost], ct);
        await using var firehose = await RabbitMqFirehose.OpenAsync(trio.Parts.RabbitMqForTests!, ct);

        // The burst straight onto the ingress queue (the load tool would need the token in its own environment), and
        // its orders file for the watch below.
        Assert.Equal(0, (await load.RunAsync("generate", "--count", $"{Orders}", "--seed", "26")).ExitCode);
        var scheduledAt = DateTimeOffset.UtcNow;
        var factory = new ConnectionFactory { Uri = trio.Parts.RabbitMqForTests! };
        await using (var connection = await factory.CreateConnectionAsync(ct))
        await using (var channel = await connection.CreateChannelAsync(cancellationToken: ct))
        {
            foreach (var order in (await OrderFile.ReadSetAsync(load.OrdersFile, ct)).Orders)
            {
                await channel.BasicPublishAsync("", OrderTopology.IngressQueue, true,
                    new BasicProperties { Persistent = true }, OrderJson.Serialize(order), ct);
            }
        }

        var watch = await load.RunAsync("watch", "--scheduled-at", scheduledAt.ToString("O"), "--timeout", "180",
            "--poll", "200", "--max-poll", "1000");
        watch.AssertExact(valid: Orders, poison: 0);

        // Every order was stored, so the distributor published each one to its receiver's queue at least once.
        var published = OrderTopology.Instances.Select(OrderTopology.QueueOf).SelectMany(firehose.PublishedTo).ToList();
        Assert.True(published.Count >= Orders,
            $"the firehose saw {published.Count} of the distributor's {Orders} messages");
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"{published.Count} messages of the distributor's; their headers: " +
            $"{string.Join(", ", published.SelectMany(m => m.Headers.Keys).Distinct())}");
        var forbidden = published.SelectMany(m => RabbitMqFirehose.Forbidden(m, token)).Distinct().ToList();
        Assert.True(forbidden.Count == 0, $"on the distributor's messages: {string.Join("; ", forbidden.Take(10))}");
    }
}
