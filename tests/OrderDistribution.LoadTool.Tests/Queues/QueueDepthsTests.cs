using System.Text;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Queues;
using OrderDistribution.TestSupport.Brokers;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using StackExchange.Redis;

namespace OrderDistribution.LoadTool.Tests.Queues;

/// <summary>
/// The orders waiting on each queue, read from the real brokers the local run uses (started here on free ports): an
/// order handed to its consumer and not yet acknowledged still waits, one not yet handed out too.
/// </summary>
public sealed class QueueDepthsTests
{
    private static readonly string Ingress = BurstMeasurement.Queues[0];
    private static readonly string Express = BurstMeasurement.Queues[1];

    [Fact]
    public async Task A_redis_streams_waiting_orders_are_its_groups_unread_entries_and_its_pending_ones()
    {
        Assert.SkipWhen(RedisServer.MissingProgram is not null, "redis-server is not installed");
        await using var redis = await RedisServer.StartAsync();
        await using var connection = await ConnectionMultiplexer.ConnectAsync(redis.Endpoint);
        var database = connection.GetDatabase();
        await database.StreamCreateConsumerGroupAsync(Ingress, "distributor", "0-0", createStream: true);
        for (var i = 0; i < 5; i++)
        {
            await database.StreamAddAsync(Ingress, "data", $"order {i}");
        }

        var read = await database.StreamReadGroupAsync(Ingress, "distributor", "consumer", ">", count: 2);
        await using var depths = await RedisQueueDepths.ConnectAsync(redis.Endpoint, BurstMeasurement.Queues);

        Assert.Equal(new Dictionary<string, long> { [Ingress] = 5 }, await depths.ReadAsync(default));
        await database.StreamAcknowledgeAsync(Ingress, "distributor", read[0].Id);
        Assert.Equal(4, (await depths.ReadAsync(default))[Ingress]);
    }

    [Fact]
    public async Task A_rabbitmq_queues_waiting_orders_are_its_ready_and_its_unacknowledged_messages()
    {
        Assert.SkipWhen(RabbitMqServer.MissingProgram is not null, "rabbitmq-server is not installed");
        await using var rabbit = await RabbitMqServer.StartAsync();
        var vhost = VhostOfExpress;
        await using var connection = await ConnectAsync(rabbit);
        await using var channel = await FiveOnExpressAsync(connection);

        // Two handed to a consumer that never acknowledges them, as a binding holds what its app works on.
        await channel.BasicQosAsync(0, 2, global: false);
        var held = new TaskCompletionSource();
        var received = 0;
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += (_, _) =>
        {
            if (Interlocked.Increment(ref received) == 2)
            {
                held.TrySetResult();
            }

            return Task.CompletedTask;
        };
        await channel.BasicConsumeAsync(Express, autoAck: false, consumer);
        await held.Task.WaitAsync(TimeSpan.FromSeconds(30));

        var depths = new RabbitMqQueueDepths(
            _ => rabbit.ControlAsync("-q", "list_queues", "-p", vhost, "name", "messages"), BurstMeasurement.Queues);
        Assert.Equal(new Dictionary<string, long> { [Express] = 5 }, await EventuallyFiveAsync(depths));
    }

    [Fact]
    public async Task RabbitMqs_management_api_counts_a_queues_published_messages()
    {
        Assert.SkipWhen(RabbitMqServer.MissingProgram is not null, "rabbitmq-server is not installed");
        await using var rabbit = await RabbitMqServer.StartAsync(management: true);
        var vhost = VhostOfExpress;
        await using var connection = await ConnectAsync(rabbit);
        await using var channel = await FiveOnExpressAsync(connection);

        var notices = new List<string>();
        var (depths, interval) = await RabbitMqSource.ChooseAsync(
            new RabbitMqApiQueueDepths(
                RabbitMqApiQueueDepths.Client(rabbit.ManagementApi!), vhost, BurstMeasurement.Queues),
            () => throw new InvalidOperationException("the API did not answer"),
            notices.Add);
        await using var _ = depths;

        Assert.Equal(QueueSampler.Interval, interval);
        Assert.Equal(new Dictionary<string, long> { [Express] = 5 }, await EventuallyFiveAsync(depths));
        Assert.Empty(notices);
    }

    private static string VhostOfExpress => LocalRabbitMq.VhostOf(LocalRabbitMq.InputComponent(Express));

    /// <summary>A connection to the express queue's vhost, made as the local run makes it.</summary>
    private static async Task<IConnection> ConnectAsync(RabbitMqServer rabbit)
    {
        await LocalRabbitMq.MakeVhostAsync(rabbit);
        var factory = new ConnectionFactory { Uri = new Uri(rabbit.AmqpUri, Uri.EscapeDataString(VhostOfExpress)) };
        return await factory.CreateConnectionAsync();
    }

    /// <summary>A channel on which five orders were published to the express queue.</summary>
    private static async Task<IChannel> FiveOnExpressAsync(IConnection connection)
    {
        var channel = await connection.CreateChannelAsync();
        await channel.QueueDeclareAsync(Express, durable: true, exclusive: false, autoDelete: false);
        for (var i = 0; i < 5; i++)
        {
            await channel.BasicPublishAsync("", Express, Encoding.UTF8.GetBytes($"order {i}"));
        }

        return channel;
    }

    /// <summary>RabbitMQ's queue statistics lag its state by up to a few seconds.</summary>
    private static async Task<IReadOnlyDictionary<string, long>> EventuallyFiveAsync(IQueueDepths depths)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            var read = await depths.ReadAsync(default);
            if (read.GetValueOrDefault(Express) == 5 || clock.Elapsed > TimeSpan.FromSeconds(30))
            {
                return read;
            }

            await Task.Delay(500);
        }
    }
}
