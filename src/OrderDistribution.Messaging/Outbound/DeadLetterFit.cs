using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// A dead letter as one message no larger than the broker takes: a letter whose body makes it larger keeps the longest
/// start of its body that fits, never half of a character, and says how many characters it left out.
/// </summary>
public static class DeadLetterFit
{
    /// <returns>The letter's JSON; still over <paramref name="maxBytes"/> only when even an empty body is.</returns>
    public static byte[] Fitted(DeadLetter letter, long maxBytes)
    {
        var whole = letter.Serialize();
        if (whole.Length <= maxBytes)
        {
            return whole;
        }

        // The JSON never shrinks as the body grows, so halving the range finds the longest start that fits; a start
        // of maxBytes characters is over already (each takes a byte or more), which bounds a huge body's search.
        var fits = 0;
        var over = (int)Math.Min(letter.Body.Length, maxBytes);
        while (over - fits > 1)
        {
            var keep = fits + ((over - fits) / 2);
            if (Cut(letter, keep).Length <= maxBytes)
            {
                fits = keep;
            }
            else
            {
                over = keep;
            }
        }

        return Cut(letter, fits);
    }

    /// <returns>The letter with the first <paramref name="keep"/> characters of its body, one fewer where the last
    /// would be the first half of a surrogate pair.</returns>
    private static byte[] Cut(DeadLetter letter, int keep)
    {
        keep -= keep > 0 && char.IsHighSurrogate(letter.Body[keep - 1]) ? 1 : 0;
        return (letter with { Body = letter.Body[..keep], OmittedChars = letter.Body.Length - keep }).Serialize();
    }
}
