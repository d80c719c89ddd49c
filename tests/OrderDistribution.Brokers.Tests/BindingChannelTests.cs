using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using OrderDistribution.TestSupport.Brokers;
using OrderDistribution.TestSupport.Components;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;

namespace OrderDistribution.Brokers.Tests;

/// <summary>
/// Each input component of components-bindings/ on the real RabbitMQ, its channel opened the way bindings.rabbitmq
/// opens it (docs/dapr-sidecar.md, "bindings.rabbitmq's channel"): basic.qos with the file's prefetchCount as a global
/// prefetch, the queue declared with the file's durable/exclusive/deleteWhenUnused and no argument (so the vhost's
/// default queue type), basic.consume without auto-ack, one ack per message. The vhost is made with
/// scripts/run-local.sh's own calls.
/// </summary>
public class BindingChannelTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Every_input_binding_consumes_and_acks_its_queue_and_a_broker_kill_keeps_what_it_had_not_acked()
    {
        Assert.SkipWhen(RabbitMqServer.MissingProgram is not null, $"{RabbitMqServer.MissingProgram} is not installed");
        var inputs = DaprComponent.LoadFolder(LocalRabbitMq.ComponentsFolder)
            .Where(c => c.Type == "bindings.rabbitmq" && c["direction"] == "input").ToList();
        Assert.NotEmpty(inputs);
        await using var rabbit = await RabbitMqServer.StartAsync();
        await LocalRabbitMq.MakeVhostAsync(rabbit);

        // The local run's queues exist from the first time its sidecars connected: each declared, then the broker's
        // state settled by an orderly stop and start of the RabbitMQ application (docs/brokers.md: a quorum queue
        // declared a moment before a kill -9 may come back without a leader on RabbitMQ 3.10).
        foreach (var input in inputs)
        {
            await using var declared = await InputBinding.OpenAsync(rabbit, input);
        }

        await rabbit.ControlAsync("stop_app");
        await rabbit.ControlAsync("start_app");

        var held = new List<InputBinding>();
        foreach (var input in inputs)
        {
            var binding = await InputBinding.OpenAsync(rabbit, input);
            held.Add(binding);
            await PublishAsync(rabbit, input, "acknowledged");
            var first = await binding.NextAsync();
            Assert.Equal("acknowledged", first.MessageId);
            await binding.AckAsync(first);
            await PublishAsync(rabbit, input, "kept");
            Assert.Equal("kept", (await binding.NextAsync()).MessageId);
            output.WriteLine($"{input.File}: consumed and acknowledged one message, holds a second unacknowledged");
        }

        rabbit.Kill();
        foreach (var binding in held)
        {
            await binding.DisposeAsync();
        }

        await rabbit.RestartAsync();

        foreach (var input in inputs)
        {
            await using var binding = await InputBinding.OpenAsync(rabbit, input);
            var again = await binding.NextAsync();
            Assert.Equal(("kept", true), (again.MessageId, again.Redelivered));
            await binding.AckAsync(again);
            await binding.ExpectNothingMoreAsync();
            output.WriteLine($"{input.File}: after the kill -9 the unacknowledged message came again, and only it");
        }
    }

    // As the output binding publishes: a connection of its own, the queue declared with its component's values, each
    // message persistent, no publisher confirms.
    private static async Task PublishAsync(RabbitMqServer rabbit, DaprComponent input, string messageId)
    {
        var outputComponent = DaprComponent.LoadFolder(LocalRabbitMq.ComponentsFolder)
            .Single(c => c["direction"] == "output" && c["queueName"] == input["queueName"]);
        await using var connection = await InputBinding.Factory(rabbit, outputComponent).CreateConnectionAsync();
        await using var channel = await connection.CreateChannelAsync();
        await InputBinding.DeclareAsync(channel, outputComponent);
        var properties = new BasicProperties
        {
            Persistent = true,
            ContentType = "application/json",
            MessageId = messageId
        };
        await channel.BasicPublishAsync("", outputComponent["queueName"]!, mandatory: false, properties,
            Encoding.UTF8.GetBytes("{}"));
    }

    private sealed record Delivery(string MessageId, bool Redelivered, ulong Tag);

    /// <summary>One input component's connection and channel, opened as bindings.rabbitmq opens them.</summary>
    private sealed class InputBinding : IAsyncDisposable
    {
        private readonly IConnection _connection;
        private readonly IChannel _channel;
        private readonly BlockingCollection<Delivery> _deliveries = [];

        private InputBinding(IConnection connection, IChannel channel)
        {
            _connection = connection;
            _channel = channel;
        }

        public static ConnectionFactory Factory(RabbitMqServer rabbit, DaprComponent component) => new()
        {
            Uri = new Uri(rabbit.AmqpUri, LocalRabbitMq.VhostOf(component)),
            AutomaticRecoveryEnabled = false,
        };

        public static Task<QueueDeclareOk> DeclareAsync(IChannel channel, DaprComponent component) =>
            channel.QueueDeclareAsync(
                Setting(component, "queueName"),
                durable: bool.Parse(Setting(component, "durable")),
                exclusive: bool.Parse(Setting(component, "exclusive")),
                autoDelete: bool.Parse(Setting(component, "deleteWhenUnused")),
                arguments: new Dictionary<string, object?>());

        /// <summary>
        /// Connects and consumes; after a broker restart it tries again until the queue answers, as the component
        /// reconnects. A refusal from the broker (not a connection that is not up yet) fails at once.
        /// </summary>
        public static async Task<InputBinding> OpenAsync(RabbitMqServer rabbit, DaprComponent component)
        {
            var deadline = DateTime.UtcNow + Wait;
            while (true)
            {
                IConnection? connection = null;
                try
                {
                    connection = await Factory(rabbit, component).CreateConnectionAsync();
                    var channel = await connection.CreateChannelAsync();
                    var binding = new InputBinding(connection, channel);
                    // The component's prefetchCount, 0 when the file sets none, as its channel-wide (global) prefetch.
                    await channel.BasicQosAsync(0,
                        ushort.Parse(component["prefetchCount"] ?? "0", CultureInfo.InvariantCulture), global: true);
                    await DeclareAsync(channel, component);
                    var consumer = new AsyncEventingBasicConsumer(channel);
                    consumer.ReceivedAsync += (_, message) =>
                    {
                        binding._deliveries.Add(
                            new Delivery(message.BasicProperties.MessageId ?? "", message.Redelivered,
                            message.DeliveryTag));
                        return Task.CompletedTask;
                    };
                    await channel.BasicConsumeAsync(Setting(component, "queueName"), autoAck: false, consumer);
                    return binding;
                }
                // 540 NOT_IMPLEMENTED (a global prefetch on a quorum queue), 406 PRECONDITION_FAILED (a declaration
                // that differs): the broker refuses this channel setup for good.
                catch (OperationInterruptedException refused) when (refused.ShutdownReason?.ReplyCode is 540 or 406)
                {
                    if (connection is not null)
                    {
                        await connection.DisposeAsync();
                    }

                    Assert.Fail(
                        $"{component.File} (prefetchCount \"{component["prefetchCount"]}\") cannot consume from " +
                                $"{component["queueName"]}: {refused.ShutdownReason.ReplyCode} " +
                                $"{refused.ShutdownReason.ReplyText}");
                    throw;
                }
                catch (Exception notYet) when (DateTime.UtcNow < deadline
                    && notYet is BrokerUnreachableException or OperationInterruptedException or IOException)
                {
                    if (connection is not null)
                    {
                        await connection.DisposeAsync();
                    }

                    await Task.Delay(500);
                }
            }
        }

        public Delivery Next() => _deliveries.TryTake(out var delivery, Wait)
            ? delivery
            : throw new Xunit.Sdk.XunitException($"no message within {Wait.TotalSeconds} s");

        public Task<Delivery> NextAsync() => Task.Run(Next);

        public async Task AckAsync(Delivery delivery) => await _channel.BasicAckAsync(delivery.Tag, multiple: false);

        public async Task ExpectNothingMoreAsync()
        {
            await Task.Delay(TimeSpan.FromSeconds(1));
            Assert.Empty(_deliveries);
        }

        public async ValueTask DisposeAsync()
        {
            try
            {
                await _channel.DisposeAsync();
                await _connection.DisposeAsync();
            }
            catch (Exception gone) when (gone is AlreadyClosedException or OperationInterruptedException or IOException)
            {
                // The broker was killed under it.
            }

            _deliveries.Dispose();
        }

        private static string Setting(DaprComponent component, string name) =>
            component[name] ?? throw new Xunit.Sdk.XunitException($"{component.File} sets no {name}");
    }
}
