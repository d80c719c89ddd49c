using OrderDistribution.Contracts;
using OrderDistribution.TestSupport.Brokers;
using OrderDistribution.TestSupport.Components;
using RabbitMQ.Client;

namespace OrderDistribution.Brokers.Tests;

/// <summary>
/// The bindings model's dead-letter queue on the real RabbitMQ, declared and written the way the output binding
/// components-bindings/q-order-deadletter-output.yaml does (its durable/exclusive/deleteWhenUnused, no argument, so the
/// vhost's default queue type; every message persistent), in the vhost scripts/run-local.sh makes: nobody consumes
/// it, and a letter the broker confirmed is still there, whole, after the broker is killed.
/// </summary>
public class DeadLetterQueueTests
{
    [Fact]
    public async Task A_confirmed_letter_stays_whole_on_the_dead_letter_quorum_queue_through_a_broker_kill()
    {
        Assert.SkipWhen(RabbitMqServer.MissingProgram is not null, $"{RabbitMqServer.MissingProgram} is not installed");
        var component = DaprComponent.LoadFolder(LocalRabbitMq.ComponentsFolder)
            .Single(c => c.Name == OrderTopology.DeadLetterOutputBinding);
        Assert.Equal(OrderTopology.DeadLetterQueue, component["queueName"]);
        await using var rabbit = await RabbitMqServer.StartAsync();
        await LocalRabbitMq.MakeVhostAsync(rabbit);
        var factory = new ConnectionFactory
        {
            Uri = new Uri(rabbit.AmqpUri, LocalRabbitMq.VhostOf(component)),
            AutomaticRecoveryEnabled = false,
        };
        var letter = new DeadLetter(OrderTopology.IngressQueue, "m-7", "not an order: the body is not JSON",
            "order 7 for Smith: not JSON at all <x>", DateTimeOffset.UnixEpoch);

        // The queue exists from the first time a sidecar connected: declared, then the broker's state settled by an
        // orderly stop and start (docs/brokers.md: a quorum queue declared a moment before a kill -9 may come back
        // without a leader on RabbitMQ 3.10).
        await using (var connection = await factory.CreateConnectionAsync())
        await using (var channel = await connection.CreateChannelAsync())
        {
            await DeclareAsTheBindingDoesAsync(channel, component);
        }

        await rabbit.ControlAsync("stop_app");
        await rabbit.ControlAsync("start_app");
        await using (var connection = await factory.CreateConnectionAsync())
        await using (var channel = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true)))
        {
            await DeclareAsTheBindingDoesAsync(channel, component);
            await channel.BasicPublishAsync("", OrderTopology.DeadLetterQueue, mandatory: true,
                new BasicProperties { Persistent = true, ContentType = "application/json" }, letter.Serialize());
        }

        Assert.Contains($"{OrderTopology.DeadLetterQueue}\tquorum",
            await rabbit.ControlAsync("list_queues", "-p", LocalRabbitMq.VhostOf(component), "name", "type"),
            StringComparison.Ordinal);
        rabbit.Kill();
        await rabbit.RestartAsync();

        await using var again = await factory.CreateConnectionAsync();
        await using var reader = await again.CreateChannelAsync();
        await DeclareAsTheBindingDoesAsync(reader, component);
        var kept = await reader.BasicGetAsync(OrderTopology.DeadLetterQueue, autoAck: false);
        Assert.NotNull(kept);
        Assert.Equal(letter, DeadLetter.Read(kept.Body.Span));
    }

    private static Task<QueueDeclareOk> DeclareAsTheBindingDoesAsync(IChannel channel, DaprComponent component) =>
        channel.QueueDeclareAsync(
            component["queueName"]!,
            durable: component["durable"] == "true",
            exclusive: component["exclusive"] == "true",
            autoDelete: component["deleteWhenUnused"] == "true",
            arguments: new Dictionary<string, object?>());
}
