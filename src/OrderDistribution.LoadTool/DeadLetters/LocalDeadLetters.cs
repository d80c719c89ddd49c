using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using RabbitMQ.Client.Exceptions;
using StackExchange.Redis;

namespace OrderDistribution.LoadTool.DeadLetters;

/// <summary>
/// A burst's poison read back from the local run's dead-letter queue, on the broker the run names in its
/// <c>queues</c> file (scripts/run-local.sh): Redis in the pub/sub models, RabbitMQ's vhost in the bindings model.
/// </summary>
public static class LocalDeadLetters
{
    /// <summary>The local RabbitMQ as the components reach it (components-bindings/, <c>host</c>), without the
    /// vhost.</summary>
    public static readonly Uri LocalRabbitMq = new("amqp://guest:guest@127.0.0.1:5672/");

    /// <summary>How long the letters may trail the last valid order: each is kept as its message is answered.</summary>
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    /// <inheritdoc cref="CountAsync(string, IReadOnlyList{PoisonOrder}, Uri, TimeProvider, CancellationToken)"/>
    public static Task<int?> CountAsync(
        string processesFolder, IReadOnlyList<PoisonOrder> poison, CancellationToken cancellationToken) =>
        CountAsync(processesFolder, poison, LocalRabbitMq, TimeProvider.System, cancellationToken);

    /// <param name="rabbitMq">The RabbitMQ of a run in the bindings model.</param>
    /// <param name="time">The clock the letters are given <see cref="Settle"/> by.</param>
    /// <returns>How many of <paramref name="poison"/> are on the dead-letter queue; null where the folder names no
    /// local run or its broker does not answer.</returns>
    public static async Task<int?> CountAsync(string processesFolder, IReadOnlyList<PoisonOrder> poison, Uri rabbitMq,
        TimeProvider time, CancellationToken cancellationToken)
    {
        var file = Path.Combine(processesFolder, "queues");
        if (poison.Count == 0 || !File.Exists(file))
        {
            return null;
        }

        try
        {
            switch ((await File.ReadAllTextAsync(file, cancellationToken)).Split(' ',
                StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                case ["redis", var endpoint]:
                    await using (var redis = await ConnectionMultiplexer.ConnectAsync(
                        new ConfigurationOptions { EndPoints = { endpoint }, ConnectTimeout = 5_000 }))
                    {
                        var db = redis.GetDatabase();
                        return await SettledCountAsync(new RedisDeadLetters(db),
                            _ => db.StreamLengthAsync(OrderTopology.DeadLetterQueue), poison, time, cancellationToken);
                    }

                case ["rabbitmq", var vhost]:
                    await using (var connection = await RabbitMqDeadLetters.ConnectAsync(
                        new Uri(rabbitMq, Uri.EscapeDataString(vhost)), cancellationToken))
                    {
                        var letters = new RabbitMqDeadLetters(connection);
                        return await SettledCountAsync(letters, letters.DepthAsync, poison, time, cancellationToken);
                    }

                default:
                    return null;
            }
        }
        catch (Exception e) when (e is RedisConnectionException or BrokerUnreachableException)
        {
            return null;
        }
    }

    /// <summary>
    /// Counts the poison on the queue until all of it is there or <see cref="Settle"/> has passed, listing the letters
    /// again only when the queue's depth changed: each listing of a RabbitMQ queue is a delivery of every letter.
    /// </summary>
    private static async Task<int> SettledCountAsync(IKeptDeadLetters letters,
        Func<CancellationToken, Task<long>> depth, IReadOnlyList<PoisonOrder> poison, TimeProvider time,
        CancellationToken cancellationToken)
    {
        var until = time.GetUtcNow() + Settle;
        long? listedAt = null;
        var found = 0;
        while (true)
        {
            var waiting = await depth(cancellationToken);
            if (waiting != listedAt)
            {
                found = DeadLetterCount.Of(poison,
                    (await letters.ListAsync(cancellationToken)).Select(l => l.Letter).OfType<DeadLetter>());
                listedAt = waiting;
            }

            if (found >= poison.Count || time.GetUtcNow() >= until)
            {
                return found;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(500), time, cancellationToken);
        }
    }
}
