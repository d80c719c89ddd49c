using System.Text;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;

namespace OrderDistribution.LoadTool.Watching;

/// <summary>
/// How many of a burst's poison orders are on the dead-letter queue: each dead letter whose body is one of the poison
/// payloads counts once, whatever else the queue holds (letters of other bursts, or other refusals).
/// </summary>
public static class DeadLetterCount
{
    /// <param name="letters">The dead-letter queue's messages, as the apps published them.</param>
    public static int Of(IReadOnlyList<PoisonOrder> poison, IEnumerable<byte[]> letters) =>
        Of(poison, letters.Select(letter => DeadLetter.Read(letter)).OfType<DeadLetter>());

    public static int Of(IReadOnlyList<PoisonOrder> poison, IEnumerable<DeadLetter> letters)
    {
        var wanted = poison.Select(p => p.Payload).ToHashSet(StringComparer.Ordinal);
        return letters.Select(letter => letter.Body).Where(wanted.Contains).Distinct(StringComparer.Ordinal).Count();
    }

    /// <summary>The text a person reads for one dead letter: where it came from, why, and its body.</summary>
    public static string Describe(DeadLetter letter) =>
        $"{letter.DeadLetteredAt:O} {letter.Queue} entry {letter.EntryId}: {letter.Reason}: " +
        Encoding.UTF8.GetString(letter.BodyBytes());
}
