using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace OrderDistribution.Contracts;

/// <summary>
/// A message an app refused for good, as kept on <see cref="OrderTopology.DeadLetterQueue"/>: the queue it came from,
/// its body as it was delivered (UTF-8 text), why it was refused and when. Resubmitting one puts <see cref="Body"/> on
/// the ingress queue again.
/// </summary>
public sealed record DeadLetter(string Queue, string EntryId, string Reason, string Body, DateTimeOffset DeadLetteredAt)
{
    /// <summary>
    /// Written for people and queues, not for HTML: quotes as <c>\"</c> and other characters as they are, so that a
    /// body
    /// of JSON grows little when it is escaped into the letter.
    /// </summary>
    private static readonly JsonTypeInfo<DeadLetter> Json = (JsonTypeInfo<DeadLetter>)new JsonSerializerOptions
    {
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        TypeInfoResolver = OrderJsonContext.Default,
    }.GetTypeInfo(typeof(DeadLetter));

    /// <summary>
    /// Characters of the body left out, at its end, because the whole letter would be larger than the broker's largest
    /// message (an order refused for being too large); 0 when <see cref="Body"/> is whole.
    /// </summary>
    public int OmittedChars { get; init; }

    public byte[] Serialize() => JsonSerializer.SerializeToUtf8Bytes(this, Json);

    /// <returns>The dead letter, or null for a message that is not one.</returns>
    public static DeadLetter? Read(ReadOnlySpan<byte> utf8Json)
    {
        try
        {
            var letter = JsonSerializer.Deserialize(utf8Json, Json);
            return letter is { Queue: not null, Body: not null } ? letter : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    public byte[] BodyBytes() => Encoding.UTF8.GetBytes(Body);
}
