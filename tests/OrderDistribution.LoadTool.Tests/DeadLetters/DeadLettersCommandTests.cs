using System.Text;
using Microsoft.Extensions.Time.Testing;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.DeadLetters;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.TestSupport;
using OrderDistribution.TestSupport.Brokers;
using StackExchange.Redis;

namespace OrderDistribution.LoadTool.Tests.DeadLetters;

/// <summary>
/// <c>dead-letters</c> on a real Redis holding letters as pubsub.redis writes an app's raw-payload publish to the
/// dead-letter topic (one field, <c>data</c>): listed, kept through the local run's trimming, and resubmitted to the
/// ingress queue, where the distributor's group reads it as a new message.
/// </summary>
public sealed class DeadLettersCommandTests
{
    [Fact]
    public async Task A_dead_letter_is_listed_with_its_reason_kept_through_trimming_and_resubmitted_to_ingress()
    {
        Assert.SkipWhen(RedisServer.MissingProgram is not null, "redis-server is not installed");
        await using var redis = await RedisServer.StartAsync();
        await using var connection = await ConnectionMultiplexer.ConnectAsync(redis.Endpoint);
        var db = connection.GetDatabase();
        await db.StreamCreateConsumerGroupAsync(OrderTopology.IngressQueue, "distributor", "0", createStream: true);
        const string body = """{"OrderId":7,"Delivery":"Overnight"}""";
        var letter = new DeadLetter(OrderTopology.IngressQueue, "e-7", "order 7: unknown delivery 'Overnight'", body,
            DateTimeOffset.UnixEpoch);
        var id = (await db.StreamAddAsync(OrderTopology.DeadLetterQueue, "data", letter.Serialize())).ToString();
        // The local run trims every stream up to what its groups still need: the dead-letter stream has none.
        await db.ScriptEvaluateAsync(
            await File.ReadAllTextAsync(Path.Combine(RepositoryRoot.Path, "scripts", "trim-streams.lua")));

        var list = new Cli();
        var listed = await list.RunAsync("dead-letters", "--redis", redis.Endpoint);
        var resubmit = new Cli();
        var resubmitted = await resubmit.RunAsync("dead-letters", "--redis", redis.Endpoint, "--resubmit", id);

        Assert.True(listed == 0, list.Output);
        Assert.Contains($"{id} 1970-01-01T00:00:00.0000000+00:00 q-order-ingress entry e-7: " +
            $"order 7: unknown delivery 'Overnight': {body}", list.Output, StringComparison.Ordinal);
        Assert.Contains("1 dead letters on q-order-deadletter", list.Output, StringComparison.Ordinal);
        Assert.True(resubmitted == 0, resubmit.Output);
        Assert.Equal(0, await db.StreamLengthAsync(OrderTopology.DeadLetterQueue));
        var read = Assert.Single(await db.StreamReadGroupAsync(OrderTopology.IngressQueue, "distributor", "c", ">"));
        Assert.Equal(body, Encoding.UTF8.GetString((byte[])read["data"]!));
    }

    [Fact]
    public async Task A_letter_that_is_not_there_is_refused_and_nothing_is_resubmitted()
    {
        Assert.SkipWhen(RedisServer.MissingProgram is not null, "redis-server is not installed");
        await using var redis = await RedisServer.StartAsync();
        await using var connection = await ConnectionMultiplexer.ConnectAsync(redis.Endpoint);

        var cli = new Cli();
        var exit = await cli.RunAsync("dead-letters", "--redis", redis.Endpoint, "--resubmit", "1-0");

        Assert.Equal(2, exit);
        Assert.Contains("No whole dead letter 1-0", cli.Output, StringComparison.Ordinal);
        Assert.Equal(0, await connection.GetDatabase().StreamLengthAsync(OrderTopology.IngressQueue));
    }

    [Fact]
    public async Task Run_and_watch_count_the_bursts_poison_on_the_local_runs_redis_and_nothing_else()
    {
        Assert.SkipWhen(RedisServer.MissingProgram is not null, "redis-server is not installed");
        await using var redis = await RedisServer.StartAsync();
        await using var connection = await ConnectionMultiplexer.ConnectAsync(redis.Endpoint);
        var db = connection.GetDatabase();
        using var folder = new TempFolder("order-load-dl-");
        var set = new BurstSpec(100, 0.03, 5)
            .Generate(new BurstId(4));
        Assert.Equal(3, set.Poison.Count);
        foreach (var (body, n) in new[] { (set.Poison[0].Payload, 0), (set.Poison[2].Payload, 2), ("other", 9) })
        {
            var letter = new DeadLetter(
                OrderTopology.IngressQueue, $"e{n}", "refused", body, DateTimeOffset.UnixEpoch);
            await db.StreamAddAsync(OrderTopology.DeadLetterQueue, "data", letter.Serialize());
        }

        await File.WriteAllTextAsync(Path.Combine(folder.Path, "queues"), $"redis {redis.Endpoint}\n");
        // One poison order never comes: the count waits the letters' settling time, on a fake clock.
        var clock = new FakeTimeProvider(DateTimeOffset.UnixEpoch);
        var (onRedis, took) = await FakeClock.AdvancingAsync(clock, TimeSpan.FromSeconds(1), () =>
            LocalDeadLetters.CountAsync(folder.Path, set.Poison, LocalDeadLetters.LocalRabbitMq, clock,
                TestContext.Current.CancellationToken));
        await File.WriteAllTextAsync(Path.Combine(folder.Path, "queues"), "none\n");
        var onNone = await LocalDeadLetters.CountAsync(
            folder.Path, set.Poison, TestContext.Current.CancellationToken);

        Assert.Equal(2, onRedis);
        Assert.Null(onNone);
        Assert.InRange(clock.GetUtcNow() - DateTimeOffset.UnixEpoch, TimeSpan.FromSeconds(10), TimeSpan.MaxValue);
        Assert.True(took < TimeSpan.FromSeconds(10), $"the settling time was waited by the real clock: {took}");
    }
}
