using System.Text;
using System.Text.Json;

namespace OrderDistribution.Contracts;

/// <summary>
/// A message an app refused for good, as kept on <see cref="OrderTopology.DeadLetterQueue"/>: the queue it came from,
/// its body as it was delivered (UTF-8 text), why it was refused and when. Resubmitting one puts <see cref="Body"/> on
/// the ingress queue again.
/// </summary>
public sealed record DeadLetter(string Queue, string EntryId, string Reason, string Body, DateTimeOffset DeadLetteredAt)
{
    /// <summary>
    /// Characters of the body left out, at its end, because the whole letter would be larger than the broker's largest
    /// message (an order refused for being too large); 0 when <see cref="Body"/> is whole.
    /// </summary>
    public int OmittedChars { get; init; }

    public byte[] Serialize() => JsonSerializer.SerializeToUtf8Bytes(this, OrderJsonContext.Default.DeadLetter);

    /// <returns>The dead letter, or null for a message that is not one.</returns>
    public static DeadLetter? Read(ReadOnlySpan<byte> utf8Json)
    {
        try
        {
            return JsonSerializer.Deserialize(utf8Json, OrderJsonContext.Default.DeadLetter) is
                { Queue: not null, Body: not null } letter
                ? letter
                : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    public byte[] BodyBytes() => Encoding.UTF8.GetBytes(Body);
}
