using Azure.Storage.Blobs;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging;
using RabbitMQ.Client;
using StackExchange.Redis;
using Order = OrderDistribution.Contracts.Order;

namespace OrderDistribution.RealParts.Tests;

/// <summary>What the real sidecars and brokers do when a part fails or an order cannot be carried.</summary>
[Trait("Category", "RealParts")]
public sealed class FailureTests
{
    /// <summary>
    /// daprd's gRPC server takes at most 4 MiB per call (docs/dapr-sidecar.md, "Measured on the current code").
    /// </summary>
    private const int OverTheSidecarsLimit = 5 * 1024 * 1024;

    [Theory(Timeout = RealTrio.TestTimeoutMilliseconds)]
    [InlineData(MessagingModel.PubSubBulk)]
    [InlineData(MessagingModel.Bindings)]
    public async Task A_receiver_restarted_mid_burst_leaves_every_order_stored_exactly_once(MessagingModel model)
    {
        var ct = TestContext.Current.CancellationToken;
        await using var trio = await RealTrio.StartAsync(model);
        using var load = new OrderLoad(trio);
        var express = trio.App(Contract.ReceiverExpress);

        var burst = load.BurstAsync(1_000, seed: 24);
        var outbox = new BlobServiceClient(trio.Parts.StorageConnectionString)
            .GetBlobContainerClient(OrderTopology.OutboxOf("express"));
        var deadline = DateTime.UtcNow.AddMinutes(2);
        while (await OutboxCount.CountAsync(outbox, ct) < 50)
        {
            Assert.True(DateTime.UtcNow < deadline,
                "fewer than 50 orders were stored within 2 minutes of the burst's start");
            Assert.False(burst.IsCompleted, "the burst ended before the receiver could be restarted in it");
            await Task.Delay(100, ct);
        }

        await express.StopAsync();
        await Task.Delay(TimeSpan.FromSeconds(5), ct);
        await express.StartAsync();

        (await burst).AssertExact(valid: 1_000, poison: 0);
    }

    [Theory(Timeout = RealTrio.TestTimeoutMilliseconds)]
    [InlineData(MessagingModel.PubSubBulk)]
    [InlineData(MessagingModel.Bindings)]
    public async Task An_order_over_the_sidecars_message_limit_is_dropped_once_and_never_retried(MessagingModel model)
    {
        var ct = TestContext.Current.CancellationToken;
        await using var trio = await RealTrio.StartAsync(model);
        using var load = new OrderLoad(trio);
        var order = new Order
        {
            OrderId = 9_000_000,
            OrderGuid = Guid.NewGuid(),
            Delivery = Delivery.Express,
            Description = new string('x', OverTheSidecarsLimit),
        };
        var huge = OrderJson.Serialize(order);

        // Straight onto the ingress queue, as any producer may put it: the load tool's own call could not carry it.
        if (model.IsPubSub())
        {
            await using var redis = await ConnectionMultiplexer.ConnectAsync(trio.Parts.RedisForTests!);
            await redis.GetDatabase().StreamAddAsync(OrderTopology.IngressQueue, "data", huge);
        }
        else
        {
            await using var connection =
                await new ConnectionFactory { Uri = trio.Parts.RabbitMqForTests! }.CreateConnectionAsync(ct);
            await using var channel = await connection.CreateChannelAsync(cancellationToken: ct);
            await channel.BasicPublishAsync("", OrderTopology.IngressQueue, true,
                new BasicProperties { Persistent = true }, huge, ct);
        }

        // Redelivery of a retried entry comes within seconds (resiliency: every second; Redis: every ~12 s).
        await Task.Delay(TimeSpan.FromSeconds(30), ct);
        var distributor = trio.App(Contract.Distributor);
        Assert.Equal(1, distributor.DroppedEntries);
        // A delivery with an entry answered RETRY starts the app's outage warnings (RetryOutage); per-delivery lines
        // are Debug.
        Assert.DoesNotContain(distributor.Logs.Lines,
            l => l.Level >= LogLevel.Warning && l.Message.Contains("answered RETRY", StringComparison.Ordinal));
        var outbox = new BlobServiceClient(trio.Parts.StorageConnectionString)
            .GetBlobContainerClient(OrderTopology.OutboxOf("express"));
        Assert.False(await outbox.GetBlobClient(OrderBlob.NameOf(order)).ExistsAsync(ct));

        // The trio goes on as before.
        (await load.BurstAsync(1_000, seed: 25)).AssertExact(valid: 1_000, poison: 0);
    }
}
