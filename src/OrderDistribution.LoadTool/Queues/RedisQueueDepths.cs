using StackExchange.Redis;

namespace OrderDistribution.LoadTool.Queues;

/// <summary>
/// The pub/sub model's queues are Redis streams, each read by one consumer group (its subscriber): the orders waiting
/// are the group's lag (entries not yet read by it) plus its pending entries (read, not yet acknowledged), from
/// <c>XINFO GROUPS</c> (Redis 7). Where Redis cannot tell the lag (after a deletion inside the stream; trimming the
/// head, as scripts/trim-streams.lua does, keeps it), the pending entries alone.
/// </summary>
public sealed class RedisQueueDepths(ConnectionMultiplexer redis, IReadOnlyList<string> streams) : IQueueDepths
{
    public static async Task<RedisQueueDepths> ConnectAsync(string endpoint, IReadOnlyList<string> streams) =>
        new(await ConnectionMultiplexer.ConnectAsync(new ConfigurationOptions
        {
            EndPoints = { endpoint },
            AbortOnConnectFail = false,
            ConnectTimeout = 2_000,
            SyncTimeout = 2_000,
        }), streams);

    public async Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken cancellationToken)
    {
        var database = redis.GetDatabase();
        var depths = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var stream in streams)
        {
            RedisResult groups;
            try
            {
                groups = await database.ExecuteAsync("XINFO", "GROUPS", stream);
            }
            catch (RedisServerException)
            {
                continue; // no such stream yet
            }

            var waiting = ((RedisResult[])groups!).Select(Waiting).DefaultIfEmpty(0).Max();
            depths[stream] = waiting;
        }

        return depths;
    }

    private static long Waiting(RedisResult group)
    {
        var fields = (RedisResult[])group!;
        var map = new Dictionary<string, RedisResult>(StringComparer.Ordinal);
        for (var i = 0; i + 1 < fields.Length; i += 2)
        {
            map[(string)fields[i]!] = fields[i + 1];
        }

        var pending = (long)map["pending"];
        return map.TryGetValue("lag", out var lag) && !lag.IsNull ? pending + (long)lag : pending;
    }

    public async ValueTask DisposeAsync() => await redis.DisposeAsync();
}
