using System.Text;
using OrderDistribution.TestSupport.Brokers;
using RabbitMQ.Client;

namespace OrderDistribution.Brokers.Tests;

/// <summary>
/// The firehose reader the real-parts header test reads the distributor's messages with, on a real RabbitMQ: it sees
/// every message published into the vhost, even one a consumer took at once, and names a forbidden header or the
/// token on it.
/// </summary>
public class RabbitMqFirehoseTests(ITestOutputHelper output)
{
    private const string Queue = "q-firehose-test";
    private const string Token = "api-token-4f2a";

    [Fact]
    public async Task It_sees_every_message_published_into_the_vhost_and_names_a_transport_header_or_the_token_on_it()
    {
        Assert.SkipWhen(RabbitMqServer.MissingProgram is not null, $"{RabbitMqServer.MissingProgram} is not installed");
        var ct = TestContext.Current.CancellationToken;
        await using var rabbit = await RabbitMqServer.StartAsync();
        await LocalRabbitMq.MakeVhostAsync(rabbit);
        const string vhost = "orders";
        await rabbit.ControlAsync("trace_on", "-p", vhost);
        var vhostUri = new Uri(rabbit.AmqpUri, vhost);
        await using var firehose = await RabbitMqFirehose.OpenAsync(vhostUri, ct);

        await using var connection = await new ConnectionFactory { Uri = vhostUri }.CreateConnectionAsync(ct);
        await using var channel = await connection.CreateChannelAsync(cancellationToken: ct);
        await channel.QueueDeclareAsync(Queue, durable: true, exclusive: false, autoDelete: false,
            cancellationToken: ct);
        // A consumer that takes each message at once, as a running sidecar does: the firehose sees them all the same.
        var taken = 0;
        var consumer = new RabbitMQ.Client.Events.AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += (_, _) =>
        {
            Interlocked.Increment(ref taken);
            return Task.CompletedTask;
        };
        await channel.BasicConsumeAsync(Queue, autoAck: true, consumer, ct);

        await PublishAsync(channel, "clean",
            new() { ["traceparent"] = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }, ct);
        await PublishAsync(channel, "grpc-header",
            new() { ["grpc-accept-encoding"] = "gzip", ["user-agent"] = "grpc-go/1.60" }, ct);
        await PublishAsync(channel, "dapr-header", new() { ["dapr-app-id"] = "distributor" }, ct);
        await PublishAsync(channel, "token-in-value", new() { ["x-note"] = $"Bearer {Token}" }, ct);

        var seen = await firehose.WaitForAsync(Queue, 4, TimeSpan.FromSeconds(30), ct);
        Assert.Equal(["clean", "grpc-header", "dapr-header", "token-in-value"],
            seen.Select(m => m.Properties["message_id"]));
        var forbidden = seen.ToDictionary(m => m.Properties["message_id"], m => RabbitMqFirehose.Forbidden(m, Token));
        foreach (var (id, found) in forbidden)
        {
            output.WriteLine($"{id}: {(found.Count == 0 ? "clean" : string.Join("; ", found))}");
        }

        Assert.Empty(forbidden["clean"]);
        Assert.Equal(["header grpc-accept-encoding: gzip", "header user-agent: grpc-go/1.60"],
            forbidden["grpc-header"].Order());
        Assert.Equal(["header dapr-app-id: distributor"], forbidden["dapr-header"]);
        Assert.Equal([$"header x-note: Bearer {Token}"], forbidden["token-in-value"]);
        Assert.Equal("{}", Encoding.UTF8.GetString(seen[0].Body));
        Assert.True(Volatile.Read(ref taken) > 0, "the consumer took nothing");
    }

    private static async Task PublishAsync(IChannel channel, string id, Dictionary<string, object?> headers,
        CancellationToken ct)
    {
        var properties = new BasicProperties
        {
            Persistent = true,
            ContentType = "application/json",
            MessageId = id,
            Headers = headers.ToDictionary(h => h.Key, h => (object?)Encoding.UTF8.GetBytes((string)h.Value!)),
        };
        await channel.BasicPublishAsync("", Queue, mandatory: false, properties, Encoding.UTF8.GetBytes("{}"), ct);
    }
}
