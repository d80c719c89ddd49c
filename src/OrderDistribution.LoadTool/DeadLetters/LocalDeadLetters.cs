using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using StackExchange.Redis;

namespace OrderDistribution.LoadTool.DeadLetters;

/// <summary>
/// A burst's poison read back from the local run's dead-letter queue, where the broker the run names in its
/// <c>queues</c> file (scripts/run-local.sh) is Redis: the pub/sub models.
/// </summary>
public static class LocalDeadLetters
{
    /// <summary>How long the letters may trail the last valid order: each is kept as its message is answered.</summary>
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    /// <returns>How many of <paramref name="poison"/> are on the dead-letter queue; null where the run names no Redis
    /// (no local run, the bindings model's RabbitMQ) or Redis does not answer.</returns>
    public static async Task<int?> CountAsync(
        string processesFolder, IReadOnlyList<PoisonOrder> poison, CancellationToken cancellationToken)
    {
        var file = Path.Combine(processesFolder, "queues");
        if (poison.Count == 0 || !File.Exists(file)
            || (await File.ReadAllTextAsync(file, cancellationToken)).Split(' ',
                StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) is not ["redis", var endpoint])
        {
            return null;
        }

        try
        {
            await using var redis = await ConnectionMultiplexer.ConnectAsync(
                new ConfigurationOptions { EndPoints = { endpoint }, ConnectTimeout = 5_000 });
            var letters = new RedisDeadLetters(redis.GetDatabase());
            var until = DateTimeOffset.UtcNow + Settle;
            while (true)
            {
                var listed = await letters.ListAsync();
                var found = DeadLetterCount.Of(poison, listed.Select(l => l.Letter).OfType<DeadLetter>());
                if (found >= poison.Count || DateTimeOffset.UtcNow >= until)
                {
                    return found;
                }

                await Task.Delay(TimeSpan.FromMilliseconds(500), cancellationToken);
            }
        }
        catch (RedisConnectionException)
        {
            return null;
        }
    }
}
