using System.Collections.Concurrent;
using OrderDistribution.TestSupport;
using OrderDistribution.TestSupport.Brokers;
using StackExchange.Redis;

namespace OrderDistribution.Brokers.Tests;

/// <summary>
/// Redis killed (kill -9) while orders are written to a stream and read by a consumer group the way pubsub.redis
/// does (XADD; XREADGROUP, XACK), then started again on its data folder.
/// </summary>
public class RedisCrashTests
{
    private const string Stream = "q-order-express";
    private const string Group = "receiver-express";

    [Fact]
    public async Task With_the_local_persistence_a_crash_loses_no_entry_redis_acknowledged_and_keeps_the_group_state()
    {
        Assert.SkipWhen(RedisServer.MissingProgram is not null, $"{RedisServer.MissingProgram} is not installed");
        await using var redis = await RedisServer.StartAsync(RunLocal.RedisPersistenceArgs());

        var outcome = await WriteReadAndCrashAsync(redis);

        await using var after = await ConnectAsync(redis);
        var db = after.GetDatabase();
        var stored = (await db.StreamRangeAsync(Stream)).Select(e => e.Id.ToString()).ToHashSet();
        Assert.True(outcome.Added.Count > 1_000, $"only {outcome.Added.Count} entries were written before the crash");
        var lost = outcome.Added.Where(id => !stored.Contains(id)).ToList();
        Assert.True(lost.Count == 0, $"{lost.Count} of {outcome.Added.Count} acknowledged entries are gone");
        var pending = (await db.StreamPendingMessagesAsync(Stream, Group, int.MaxValue, RedisValue.Null))
            .Select(p => p.MessageId.ToString()).ToHashSet();
        Assert.False(outcome.Acknowledged.Any(pending.Contains), "an acknowledged entry is pending again");
        var unacknowledged = outcome.Delivered.Except(outcome.AcknowledgementSent).ToList();
        Assert.NotEmpty(unacknowledged);
        Assert.All(unacknowledged, id => Assert.Contains(id, pending));
    }

    [Fact]
    public async Task Without_persistence_the_same_crash_loses_the_stream()
    {
        // What scripts/run-local.sh started Redis with before: shows the test above can see a loss.
        Assert.SkipWhen(RedisServer.MissingProgram is not null, $"{RedisServer.MissingProgram} is not installed");
        await using var redis = await RedisServer.StartAsync(["--appendonly", "no", "--save", ""]);

        var outcome = await WriteReadAndCrashAsync(redis);

        await using var after = await ConnectAsync(redis);
        Assert.NotEmpty(outcome.Added);
        Assert.Equal(0, await after.GetDatabase().StreamLengthAsync(Stream));
    }

    private static async Task<Outcome> WriteReadAndCrashAsync(RedisServer redis)
    {
        var outcome = new Outcome();
        await using (var connection = await ConnectAsync(redis))
        {
            var db = connection.GetDatabase();
            await db.StreamCreateConsumerGroupAsync(Stream, Group, "0", createStream: true);
            using var stop = new CancellationTokenSource();
            var writers = Enumerable.Range(0, 16).Select(w => Task.Run(async () =>
            {
                for (var i = 0L; !stop.IsCancellationRequested; i++)
                {
                    try
                    {
                        var id = await db.StreamAddAsync(Stream, "data", OrderEntry.For(w * 1_000_000 + i));
                        outcome.Added.Add(id.ToString());
                    }
                    catch (RedisException)
                    {
                        return; // the broker is gone: what it did not answer was never counted
                    }
                }
            })).ToList();
            var reader = Task.Run(async () =>
            {
                var acknowledge = true;
                while (!stop.IsCancellationRequested)
                {
                    try
                    {
                        var read = await db.StreamReadGroupAsync(Stream, Group, "consumer", ">", count: 100);
                        foreach (var entry in read)
                        {
                            outcome.Delivered.Add(entry.Id.ToString());
                        }

                        // Every other batch stays pending, as a delivery in flight would at the crash.
                        if (read.Length > 0 && (acknowledge = !acknowledge))
                        {
                            foreach (var entry in read)
                            {
                                outcome.AcknowledgementSent.Add(entry.Id.ToString());
                            }

                            await db.StreamAcknowledgeAsync(Stream, Group, [.. read.Select(e => e.Id)]);
                            foreach (var entry in read)
                            {
                                outcome.Acknowledged.Add(entry.Id.ToString());
                            }
                        }
                    }
                    catch (RedisException)
                    {
                        return;
                    }
                }
            });

            // Bounded: writers that all failed would never reach the count.
            await Eventually.TrueAsync(() => outcome.Added.Count >= 5_000 || writers.All(w => w.IsCompleted),
                TimeSpan.FromSeconds(60));
            Assert.True(outcome.Added.Count >= 5_000,
                $"the writers stopped after {outcome.Added.Count} entries, before the crash");

            redis.Kill();
            await stop.CancelAsync();
            await Task.WhenAll([.. writers, reader]).WaitAsync(TimeSpan.FromSeconds(30));
        }

        await redis.RestartAsync();
        return outcome;
    }

    private static async Task<ConnectionMultiplexer> ConnectAsync(RedisServer redis) =>
        await ConnectionMultiplexer.ConnectAsync(new ConfigurationOptions
        {
            EndPoints = { redis.Endpoint },
            AbortOnConnectFail = false,
            ConnectRetry = 10,
            SyncTimeout = 5_000,
            AsyncTimeout = 5_000,
            // A write cut off by the crash fails at once instead of being sent again after the restart.
            BacklogPolicy = BacklogPolicy.FailFast,
        });

    private sealed class Outcome
    {
        public ConcurrentBag<string> Added { get; } = [];

        public ConcurrentBag<string> Delivered { get; } = [];

        /// <summary>Entries whose XACK was sent: one cut off by the crash may or may not have reached Redis.</summary>
        public ConcurrentBag<string> AcknowledgementSent { get; } = [];

        /// <summary>Entries whose XACK Redis answered.</summary>
        public ConcurrentBag<string> Acknowledged { get; } = [];
    }
}
