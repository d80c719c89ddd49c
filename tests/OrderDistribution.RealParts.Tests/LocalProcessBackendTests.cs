using System.Net;
using System.Net.Sockets;
using Azure.Storage.Blobs;
using OrderDistribution.Messaging;
using RabbitMQ.Client;
using StackExchange.Redis;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The local-process back-end's brokers and storage, for real: where they listen, that they answer, that they go.
/// </summary>
[Trait("Category", "RealParts")]
public sealed class LocalProcessBackendTests
{
    [Fact]
    public async Task For_the_pubsub_model_it_starts_redis_and_azurite_on_free_ports_answering_and_gone_on_dispose()
    {
        SkipUnlessInstalled(RedisServer.MissingProgram);

        var parts = await StartedAndStoppedAsync(MessagingModel.PubSubBulk, async parts =>
        {
            Assert.Null(parts.RabbitMqForTests);
            Assert.Equal(parts.RedisForTests, parts.Components.Redis);
            Assert.NotEqual(6379, PortOf(parts.RedisForTests!));
            await using var redis = await ConnectionMultiplexer.ConnectAsync(parts.RedisForTests!);
            Assert.True(await redis.GetDatabase().PingAsync() > TimeSpan.Zero);
        });

        await AssertNothingListensAsync(PortOf(parts.RedisForTests!));
    }

    [Fact]
    public async Task For_the_bindings_model_it_starts_rabbitmq_with_the_components_login_and_azurite_gone_on_dispose()
    {
        SkipUnlessInstalled(RabbitMqServer.MissingProgram);

        var parts = await StartedAndStoppedAsync(MessagingModel.Bindings, async parts =>
        {
            Assert.Null(parts.RedisForTests);
            Assert.Equal($"127.0.0.1:{parts.RabbitMqForTests!.Port}", parts.Components.RabbitMq);
            Assert.NotEqual(5672, parts.RabbitMqForTests.Port);
            // The login the bindings components use (guest over loopback), and a message through a queue and back.
            Assert.Equal("guest:guest", parts.RabbitMqForTests.UserInfo);
            var ct = TestContext.Current.CancellationToken;
            await using var connection =
                await new ConnectionFactory { Uri = parts.RabbitMqForTests }.CreateConnectionAsync(ct);
            await using var channel = await connection.CreateChannelAsync(cancellationToken: ct);
            var queue = (await channel.QueueDeclareAsync(cancellationToken: ct)).QueueName;
            await channel.BasicPublishAsync("", queue, "order"u8.ToArray(), ct);
            var got = await channel.BasicGetAsync(queue, autoAck: true, ct);
            Assert.Equal("order", System.Text.Encoding.UTF8.GetString(got!.Body.Span));
        });

        await AssertNothingListensAsync(parts.RabbitMqForTests!.Port);
    }

    /// <summary>
    /// Starts the model's parts, checks the broker (<paramref name="broker"/>) and storage answer, and disposes them.
    /// </summary>
    private static async Task<StartedParts> StartedAndStoppedAsync(MessagingModel model, Func<StartedParts,
        Task> broker)
    {
        StartedParts parts;
        await using (var backend = new LocalProcessBackend(DaprRuntime.FromEnvironment()))
        {
            parts = await backend.StartPartsAsync(model, TestContext.Current.CancellationToken);
            await broker(parts);
            await AssertStorageAnswersAsync(parts.StorageConnectionString);
        }

        await AssertNothingListensAsync(new BlobServiceClient(parts.StorageConnectionString).Uri.Port);
        return parts;
    }

    private static void SkipUnlessInstalled(string? missingBroker)
    {
        Assert.SkipWhen(missingBroker is not null,
            $"{missingBroker} is not installed (apt-get install {missingBroker}).");
        Assert.SkipUnless(Azurite.IsInstalled, "Azurite is not installed (scripts/install-tools.sh).");
    }

    private static async Task AssertStorageAnswersAsync(string connectionString)
    {
        var ct = TestContext.Current.CancellationToken;
        var container = new BlobServiceClient(connectionString).GetBlobContainerClient("real-parts");
        Assert.NotEqual(10000, container.Uri.Port);
        await container.CreateIfNotExistsAsync(cancellationToken: ct);
        await container.UploadBlobAsync("1.json", BinaryData.FromString("{}"), ct);
        Assert.Equal("{}", (await container.GetBlobClient("1.json").DownloadContentAsync(ct)).Value.Content.ToString());
    }

    private static int PortOf(string hostAndPort) =>
        int.Parse(hostAndPort[(hostAndPort.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);

    private static async Task AssertNothingListensAsync(int port)
    {
        using var client = new TcpClient();
        await Assert.ThrowsAsync<SocketException>(() =>
            client.ConnectAsync(IPAddress.Loopback, port, TestContext.Current.CancellationToken).AsTask());
    }
}
