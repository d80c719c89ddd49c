using System.Text;
using OrderDistribution.LoadTool;
using OrderDistribution.Contracts;
using RabbitMQ.Client;
using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// What reaches a broker message besides the order: daprd copies the gRPC call's headers into a binding's metadata,
/// which bindings.rabbitmq writes as message headers (docs/dapr-sidecar.md, "Measured on the current code").
/// </summary>
[Trait("Category", "RealParts")]
public sealed class BrokerHeaderTests
{
    private static readonly string[] TransportHeaders = ["content-type", "user-agent", ":authority", "authorization", "grpc-"];

    [Fact(Timeout = RealTrio.TestTimeoutMilliseconds)]
    public async Task The_distributors_messages_on_rabbitmq_carry_no_transport_header_and_no_token()
    {
        var ct = TestContext.Current.CancellationToken;
        var token = $"real-parts-{Guid.NewGuid():N}";
        await using var trio = await RealTrio.StartAsync(MessagingModel.Bindings, token);
        using var load = new OrderLoad(trio);
        var receivers = new[] { trio.App(Contract.ReceiverExpress), trio.App(Contract.ReceiverStandard) };
        foreach (var receiver in receivers)
        {
            await receiver.StopAsync();
        }

        // The burst straight onto the ingress queue (the load tool would need the token in its own environment), and its
        // orders file for the watch below.
        Assert.Equal(0, (await load.RunAsync("generate", "--count", "1000", "--seed", "26")).ExitCode);
        var scheduledAt = DateTimeOffset.UtcNow;
        await using var connection = await new ConnectionFactory { Uri = trio.Parts.RabbitMqForTests! }.CreateConnectionAsync(ct);
        await using var channel = await connection.CreateChannelAsync(cancellationToken: ct);
        foreach (var order in (await OrderFile.ReadSetAsync(load.OrdersFile, ct)).Orders)
        {
            await channel.BasicPublishAsync("", OrderTopology.IngressQueue, true, new BasicProperties { Persistent = true }, OrderJson.Serialize(order), ct);
        }

        // With the receivers down, what the distributor published waits in their queues: look at some, and put them back.
        var headers = new List<(string Queue, string Name, string Value)>();
        foreach (var queue in OrderTopology.Instances.Select(OrderTopology.QueueOf))
        {
            var seen = 0;
            var deadline = DateTime.UtcNow.AddSeconds(60);
            while (seen < 20 && DateTime.UtcNow < deadline)
            {
                if (await channel.BasicGetAsync(queue, autoAck: false, ct) is not { } message)
                {
                    await Task.Delay(200, ct);
                    continue;
                }

                seen++;
                headers.AddRange((message.BasicProperties.Headers ?? new Dictionary<string, object?>())
                    .Select(h => (queue, h.Key, h.Value is byte[] bytes ? Encoding.UTF8.GetString(bytes) : $"{h.Value}")));
                await channel.BasicNackAsync(message.DeliveryTag, multiple: false, requeue: true, ct);
            }

            Assert.True(seen > 0, $"no message of the distributor's reached {queue} within 60 s");
        }

        TestContext.Current.TestOutputHelper?.WriteLine(string.Join("; ", headers.Select(h => $"{h.Name}: {h.Value}").Distinct()));
        Assert.DoesNotContain(headers, h => h.Name.StartsWith("dapr-", StringComparison.OrdinalIgnoreCase));
        Assert.DoesNotContain(headers, h => TransportHeaders.Any(t => h.Name.StartsWith(t, StringComparison.OrdinalIgnoreCase)));
        Assert.DoesNotContain(headers, h => h.Value.Contains(token, StringComparison.Ordinal) || h.Value.Contains("application/grpc", StringComparison.Ordinal));

        foreach (var receiver in receivers)
        {
            await receiver.StartAsync();
        }

        var watch = await load.RunAsync("watch", "--scheduled-at", scheduledAt.ToString("O"), "--timeout", "180", "--poll", "200", "--max-poll", "1000");
        watch.AssertExact(valid: 1_000, poison: 0);
    }
}
