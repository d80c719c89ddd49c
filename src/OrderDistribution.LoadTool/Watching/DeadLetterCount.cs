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
    public static int Of(IReadOnlyList<PoisonOrder> poison, IEnumerable<byte[]> letters)
    {
        var wanted = poison.Select(p => p.Payload).ToHashSet(StringComparer.Ordinal);
        var found = new HashSet<string>(StringComparer.Ordinal);
        foreach (var letter in letters)
        {
            if (DeadLetter.Read(letter) is { } read && wanted.Contains(read.Body))
            {
                found.Add(read.Body);
            }
        }

        return found.Count;
    }

    /// <summary>The text a person reads for one dead letter: where it came from, why, and its body.</summary>
    public static string Describe(DeadLetter letter) =>
        $"{letter.DeadLetteredAt:O} {letter.Queue} entry {letter.EntryId}: {letter.Reason}: " +
        Encoding.UTF8.GetString(letter.BodyBytes());
}
