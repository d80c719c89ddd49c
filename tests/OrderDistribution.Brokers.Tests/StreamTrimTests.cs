using OrderDistribution.TestSupport.Brokers;
using StackExchange.Redis;

namespace OrderDistribution.Brokers.Tests;

/// <summary>scripts/trim-streams.lua, the local run's bound on Redis, run on a real Redis.</summary>
public class StreamTrimTests
{
    [Fact]
    public async Task Trimming_removes_acknowledged_entries_and_keeps_pending_and_unread_ones_of_every_group()
    {
        Assert.SkipWhen(RedisServer.MissingProgram is not null, $"{RedisServer.MissingProgram} is not installed");
        await using var redis = await RedisServer.StartAsync();
        await using var connection = await ConnectionMultiplexer.ConnectAsync(redis.Endpoint);
        var db = connection.GetDatabase();
        await db.StreamCreateConsumerGroupAsync("q-order-express", "receiver-express", "0", createStream: true);
        await db.StreamCreateConsumerGroupAsync("q-order-express", "audit", "0");
        var ids = new List<RedisValue>();
        for (var i = 1; i <= 10; i++)
        {
            ids.Add(await db.StreamAddAsync("q-order-express", "data", OrderEntry.For(i)));
        }

        // receiver-express: 1-4 acknowledged, 5 delivered and not acknowledged, 6-8 acknowledged, 9-10 unread.
        await db.StreamReadGroupAsync("q-order-express", "receiver-express", "c", ">", count: 8);
        await db.StreamAcknowledgeAsync("q-order-express", "receiver-express", [.. ids[..4], .. ids[5..8]]);
        // audit: 1-6 read and acknowledged, 7-10 unread.
        await db.StreamReadGroupAsync("q-order-express", "audit", "c", ">", count: 6);
        await db.StreamAcknowledgeAsync("q-order-express", "audit", [.. ids[..6]]);
        // A stream no group reads yet is never trimmed: a group created later reads it from the start.
        await db.StreamAddAsync("q-order-standard", "data", OrderEntry.For(11));

        await db.ScriptEvaluateAsync(RunLocal.TrimStreamsScript());

        var left = (await db.StreamRangeAsync("q-order-express")).Select(e => e.Id).ToList();
        Assert.Equal(ids[4..], left); // the pending entry 5 and everything after it
        Assert.Equal(1, await db.StreamLengthAsync("q-order-standard"));

        // Once 5 is acknowledged, what no group needs any more goes: up to audit's first unread, 7.
        await db.StreamAcknowledgeAsync("q-order-express", "receiver-express", ids[4]);
        await db.ScriptEvaluateAsync(RunLocal.TrimStreamsScript());
        Assert.Equal(ids[6..], (await db.StreamRangeAsync("q-order-express")).Select(e => e.Id).ToList());
    }

    [Fact]
    public async Task A_burst_of_150_000_trimmed_while_its_consumer_lags_reaches_it_whole_leaving_the_stream_empty()
    {
        Assert.SkipWhen(RedisServer.MissingProgram is not null, $"{RedisServer.MissingProgram} is not installed");
        const int Burst = 150_000;
        const int BulkSize = 250;
        const int BulksInFlight = 8; // delivered, not yet acknowledged: what the sidecar has handed the app
        await using var redis = await RedisServer.StartAsync();
        await using var connection = await ConnectionMultiplexer.ConnectAsync(redis.Endpoint);
        var db = connection.GetDatabase();
        await db.StreamCreateConsumerGroupAsync("q-order-ingress", "distributor", "0", createStream: true);
        var entry = OrderEntry.For(1);
        var added = new List<RedisValue>(Burst);
        foreach (var chunk in Enumerable.Range(0, Burst).Chunk(5_000))
        {
            added.AddRange(await Task.WhenAll(chunk.Select(_ => db.StreamAddAsync("q-order-ingress", "data", entry))));
        }

        // The local run trims every 30 s; here as often as it can, while the consumer is far behind the burst.
        using var stop = new CancellationTokenSource();
        var trims = 0;
        var trimming = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                await db.ScriptEvaluateAsync(RunLocal.TrimStreamsScript());
                trims++;
            }
        });
        var read = new List<RedisValue>(Burst);
        var inFlight = new Queue<RedisValue[]>();
        while (true)
        {
            var bulk = (await db.StreamReadGroupAsync("q-order-ingress", "distributor", "sidecar", ">",
                count: BulkSize)).Select(e => e.Id).ToArray();
            if (bulk.Length == 0 && inFlight.Count == 0)
            {
                break;
            }

            if (bulk.Length > 0)
            {
                read.AddRange(bulk);
                inFlight.Enqueue(bulk);
            }

            if (inFlight.Count > BulksInFlight || bulk.Length == 0)
            {
                await db.StreamAcknowledgeAsync("q-order-ingress", "distributor", inFlight.Dequeue());
            }
        }

        await stop.CancelAsync();
        await trimming;
        await db.ScriptEvaluateAsync(RunLocal.TrimStreamsScript());

        Assert.True(trims > 10, $"the script ran only {trims} times during the burst");
        Assert.Equal(added, read); // every entry, once, in order: none trimmed before it was read
        Assert.Equal(0, await db.StreamLengthAsync("q-order-ingress")); // and nothing kept once all were acknowledged
    }
}
