using OrderDistribution.Contracts;
using StackExchange.Redis;

namespace OrderDistribution.LoadTool.DeadLetters;

/// <summary>
/// The local pub/sub model's dead-letter queue: the Redis stream <see cref="OrderTopology.DeadLetterQueue"/>, each
/// entry
/// written as pubsub.redis writes a publish (one field, <c>data</c>). No consumer group reads it, so
/// scripts/trim-streams.lua never trims it: a letter stays until it is resubmitted.
/// </summary>
public sealed class RedisDeadLetters(IDatabase redis) : IKeptDeadLetters
{
    private const string DataField = "data";

    /// <summary>Each letter under its stream entry id.</summary>
    public async Task<IReadOnlyList<(string Id, DeadLetter? Letter)>> ListAsync(CancellationToken cancellationToken) =>
        [.. (await redis.StreamRangeAsync(OrderTopology.DeadLetterQueue)).Select(entry =>
            (entry.Id.ToString(), DeadLetter.Read((byte[])entry[DataField]!)))];

    /// <summary>
    /// Puts the letter's body on the ingress queue as a publish would (the distributor routes it again), then takes the
    /// letter off the dead-letter queue.
    /// </summary>
    public async Task<DeadLetter?> ResubmitAsync(string id, CancellationToken cancellationToken)
    {
        var entries = await redis.StreamRangeAsync(OrderTopology.DeadLetterQueue, id, id);
        if (entries is not [var entry] || DeadLetter.Read((byte[])entry[DataField]!) is not { OmittedChars: 0 } letter)
        {
            return null;
        }

        await redis.StreamAddAsync(OrderTopology.IngressQueue, DataField, letter.BodyBytes());
        await redis.StreamDeleteAsync(OrderTopology.DeadLetterQueue, [entry.Id]);
        return letter;
    }
}
