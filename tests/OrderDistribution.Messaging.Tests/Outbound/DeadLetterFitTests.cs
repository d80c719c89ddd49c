using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// A dead letter is one broker message: cut to the longest start of its body that fits, never half a character, and
/// saying how much it left out.
/// </summary>
public sealed class DeadLetterFitTests
{
    private static readonly DateTimeOffset At = new(2026, 12, 7, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public void A_letter_that_fits_exactly_is_kept_whole()
    {
        var letter = Letter(new string('x', 500));
        var whole = letter.Serialize();

        Assert.Equal(whole, DeadLetterFit.Fitted(letter, whole.Length));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(37)]
    [InlineData(400)]
    public void A_letter_over_the_limit_keeps_the_longest_start_of_its_body_that_fits(int over)
    {
        var body = string.Concat(Enumerable.Range(0, 100).Select(i => $"line {i}: \"quoted\" text\n"));
        var letter = Letter(body);
        var max = letter.Serialize().Length - over;

        var kept = Read(DeadLetterFit.Fitted(letter, max));

        Assert.True(kept.Serialize().Length <= max, $"{kept.Serialize().Length} bytes, over {max}");
        Assert.StartsWith(kept.Body, body, StringComparison.Ordinal);
        Assert.Equal(body.Length - kept.Body.Length, kept.OmittedChars);
        Assert.True(Cut(letter, kept.Body.Length + 1).Length > max, "one more character would still have fit");
    }

    [Fact]
    public void A_body_far_larger_than_the_limit_keeps_the_longest_start_that_fits()
    {
        var body = new string('w', 2_000_000);
        var letter = Letter(body);

        var kept = Read(DeadLetterFit.Fitted(letter, 4_096));

        Assert.True(kept.Serialize().Length <= 4_096);
        Assert.True(Cut(letter, kept.Body.Length + 1).Length > 4_096, "one more character would still have fit");
        Assert.Equal(body.Length - kept.Body.Length, kept.OmittedChars);
    }

    [Fact]
    public void A_cut_that_lands_exactly_on_the_limit_keeps_that_much()
    {
        var letter = Letter(new string('y', 1_000));
        var max = Cut(letter, 600).Length;

        var kept = Read(DeadLetterFit.Fitted(letter, max));

        Assert.Equal(600, kept.Body.Length);
        Assert.Equal(400, kept.OmittedChars);
    }

    /// <param name="slack">Bytes over a cut of 150 emoji; each one more takes 12 (<c>\uD83D\uDCE6</c>), its first half
    /// alone 6.</param>
    [Theory]
    [InlineData(0, 300)]
    [InlineData(6, 300)]
    [InlineData(11, 300)]
    [InlineData(12, 302)]
    public void A_cut_never_splits_a_character_of_two_UTF16_units(int slack, int keeps)
    {
        var body = string.Concat(Enumerable.Repeat("\U0001F4E6", 300));
        var letter = Letter(body);
        var max = Cut(letter, 300).Length + slack;

        var kept = Read(DeadLetterFit.Fitted(letter, max));

        Assert.Equal(0, kept.Body.Length % 2);
        Assert.False(char.IsHighSurrogate(kept.Body[^1]));
        Assert.Equal(keeps, kept.Body.Length);
        Assert.Equal(body.Length - kept.Body.Length, kept.OmittedChars);
    }

    [Fact]
    public void A_letter_too_large_even_without_a_body_keeps_no_body_and_says_all_of_it_was_left_out()
    {
        var letter = Letter(new string('z', 300));

        var kept = Read(DeadLetterFit.Fitted(letter, 10));

        Assert.Equal("", kept.Body);
        Assert.Equal(300, kept.OmittedChars);
    }

    private static DeadLetter Letter(string body) =>
        new("q-order-express", "entry-1", "1000 bytes, more than the broker's largest message", body, At);

    /// <summary>The letter with the first <paramref name="keep"/> characters of its body, as the cut writes
    /// it.</summary>
    private static byte[] Cut(DeadLetter letter, int keep) =>
        (letter with { Body = letter.Body[..keep], OmittedChars = letter.Body.Length - keep }).Serialize();

    private static DeadLetter Read(byte[] payload) => DeadLetter.Read(payload) ?? throw new InvalidOperationException(
        "not a dead letter");
}
