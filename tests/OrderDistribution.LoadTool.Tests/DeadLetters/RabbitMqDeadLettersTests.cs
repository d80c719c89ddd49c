using System.Text;
using Microsoft.Extensions.Time.Testing;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.DeadLetters;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.TestSupport;
using OrderDistribution.TestSupport.Brokers;
using OrderDistribution.TestSupport.Components;
using RabbitMQ.Client;

namespace OrderDistribution.LoadTool.Tests.DeadLetters;

/// <summary>
/// The bindings model's dead-letter queue on a real RabbitMQ, in the vhost scripts/run-local.sh makes, holding letters
/// as q-order-deadletter-output publishes them (the letter's JSON as the body, persistent, content type
/// application/json): run and watch count this burst's poison on it, <c>dead-letters --rabbitmq</c> lists the letters
/// without taking any off and resubmits one to q-order-ingress, where the input binding reads the body as it is.
/// </summary>
public sealed class RabbitMqDeadLettersTests
{
    [Fact]
    public async Task Letters_are_counted_and_listed_without_loss_and_one_is_resubmitted_while_the_others_stay()
    {
        Assert.SkipWhen(RabbitMqServer.MissingProgram is not null, $"{RabbitMqServer.MissingProgram} is not installed");
        await using var rabbit = await RabbitMqServer.StartAsync();
        var (connection, channel, vhost) = await DeclaredAsync(rabbit);
        await using var _ = connection;
        var set = new BurstSpec(100, 0.03, 5).Generate(new BurstId(4));
        var bodies = new[] { set.Poison[0].Payload, set.Poison[2].Payload, "not an order at all" };
        foreach (var (body, n) in bodies.Select((body, n) => (body, n)))
        {
            await PublishAsTheBindingDoesAsync(channel, new DeadLetter(
                OrderTopology.IngressQueue, $"m-{n}", $"refused {n}", body, DateTimeOffset.UnixEpoch));
        }

        using var folder = new TempFolder("order-load-dl-");
        // One poison order never comes: the count waits the letters' settling time, on a fake clock.
        var clock = new FakeTimeProvider(DateTimeOffset.UnixEpoch);
        await File.WriteAllTextAsync(Path.Combine(folder.Path, "queues"), $"rabbitmq {vhost}\n");
        var (counted, took) = await FakeClock.AdvancingAsync(clock, TimeSpan.FromSeconds(1), () =>
            LocalDeadLetters.CountAsync(folder.Path, set.Poison, rabbit.AmqpUri, clock,
                TestContext.Current.CancellationToken));

        var amqp = new Uri(rabbit.AmqpUri, vhost).ToString();
        var list = new Cli();
        var listed = await list.RunAsync("dead-letters", "--rabbitmq", amqp);
        var listedAgain = new Cli();
        await listedAgain.RunAsync("dead-letters", "--rabbitmq", amqp);
        var ids = await IdsAsync(rabbit, vhost);
        var resubmit = new Cli();
        var resubmitted = await resubmit.RunAsync("dead-letters", "--rabbitmq", amqp, "--resubmit", ids[1]);

        Assert.Equal(2, counted);
        Assert.InRange(clock.GetUtcNow() - DateTimeOffset.UnixEpoch, TimeSpan.FromSeconds(10), TimeSpan.MaxValue);
        Assert.True(took < TimeSpan.FromSeconds(10), $"the settling time was waited by the real clock: {took}");
        Assert.True(listed == 0, list.Output);
        Assert.Contains("3 dead letters on q-order-deadletter", list.Output, StringComparison.Ordinal);
        Assert.Contains($"{ids[2]} 1970-01-01T00:00:00.0000000+00:00 q-order-ingress entry m-2: refused 2: " +
            "not an order at all", list.Output, StringComparison.Ordinal);
        Assert.Contains("3 dead letters on q-order-deadletter", listedAgain.Output, StringComparison.Ordinal);
        Assert.True(resubmitted == 0, resubmit.Output);
        Assert.Contains($"Resubmitted {ids[1]} to q-order-ingress", resubmit.Output, StringComparison.Ordinal);
        var onIngress = await channel.BasicGetAsync(OrderTopology.IngressQueue, autoAck: true);
        Assert.NotNull(onIngress);
        Assert.Equal(bodies[1], Encoding.UTF8.GetString(onIngress.Body.Span));
        Assert.Equal("application/json", onIngress.BasicProperties.ContentType);
        Assert.True(onIngress.BasicProperties.Persistent);
        Assert.Null(await channel.BasicGetAsync(OrderTopology.IngressQueue, autoAck: true));
        Assert.Equal(new[] { ids[0], ids[2] }, await IdsAsync(rabbit, vhost));
    }

    [Fact]
    public async Task A_letter_that_is_not_there_is_refused_and_nothing_is_resubmitted_or_taken_off()
    {
        Assert.SkipWhen(RabbitMqServer.MissingProgram is not null, $"{RabbitMqServer.MissingProgram} is not installed");
        await using var rabbit = await RabbitMqServer.StartAsync();
        var (connection, channel, vhost) = await DeclaredAsync(rabbit);
        await using var _ = connection;
        await PublishAsTheBindingDoesAsync(channel, new DeadLetter(
            OrderTopology.IngressQueue, "m-1", "refused", "{}", DateTimeOffset.UnixEpoch));

        var cli = new Cli();
        var exit = await cli.RunAsync(
            "dead-letters", "--rabbitmq", new Uri(rabbit.AmqpUri, vhost).ToString(), "--resubmit", "0123456789abcdef");

        Assert.Equal(2, exit);
        Assert.Contains("No whole dead letter 0123456789abcdef", cli.Output, StringComparison.Ordinal);
        Assert.Equal(0u, (await channel.QueueDeclarePassiveAsync(OrderTopology.IngressQueue)).MessageCount);
        Assert.Single(await IdsAsync(rabbit, vhost));
    }

    /// <summary>
    /// The vhost as the run script makes it, and the two queues as the sidecars' bindings declare them (their
    /// component's durable/exclusive/deleteWhenUnused, no argument): a connection to it and a channel with publisher
    /// confirms.
    /// </summary>
    private static async Task<(IConnection Connection, IChannel Channel, string Vhost)> DeclaredAsync(
        RabbitMqServer rabbit)
    {
        await LocalRabbitMq.MakeVhostAsync(rabbit);
        var components = DaprComponent.LoadFolder(LocalRabbitMq.ComponentsFolder);
        var deadLetters = components.Single(c => c.Name == OrderTopology.DeadLetterOutputBinding);
        var vhost = LocalRabbitMq.VhostOf(deadLetters);
        var connection = await RabbitMqDeadLetters.ConnectAsync(
            new Uri(rabbit.AmqpUri, vhost), TestContext.Current.CancellationToken);
        var channel = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true));
        foreach (var component in new[] { deadLetters, LocalRabbitMq.InputComponent(OrderTopology.IngressQueue) })
        {
            await channel.QueueDeclareAsync(component["queueName"]!, durable: component["durable"] == "true",
                exclusive: component["exclusive"] == "true", autoDelete: component["deleteWhenUnused"] == "true",
                arguments: new Dictionary<string, object?>());
        }

        return (connection, channel, vhost);
    }

    private static Task PublishAsTheBindingDoesAsync(IChannel channel, DeadLetter letter) =>
        channel.BasicPublishAsync("", OrderTopology.DeadLetterQueue, mandatory: true,
            new BasicProperties { Persistent = true, ContentType = "application/json" }, letter.Serialize()).AsTask();

    /// <returns>The ids of the letters on the queue, oldest first, as <c>dead-letters</c> lists them.</returns>
    private static async Task<string[]> IdsAsync(RabbitMqServer rabbit, string vhost)
    {
        await using var connection = await RabbitMqDeadLetters.ConnectAsync(
            new Uri(rabbit.AmqpUri, vhost), TestContext.Current.CancellationToken);
        var listed = await new RabbitMqDeadLetters(connection).ListAsync(TestContext.Current.CancellationToken);
        return [.. listed.Select(l => l.Id)];
    }
}
