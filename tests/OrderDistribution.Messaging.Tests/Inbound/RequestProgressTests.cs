using OrderDistribution.Messaging.Inbound;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// What a request's progress names when it is logged: its first failure, on one line whatever the wire sent.
/// </summary>
public sealed class RequestProgressTests
{
    [Fact]
    public void A_first_failure_whose_entry_id_and_reason_carry_line_breaks_stays_on_one_line_with_them_escaped()
    {
        var progress = new RequestProgress(2);

        progress.MarkFailed("e1\r\nfail: forged line", "storage said \"busy\nRequestId:1\"\u001b[31m");
        progress.MarkFailed("e2", "a later failure");

        Assert.Equal("e1\\r\\nfail: forged line: storage said \"busy\\nRequestId:1\"\\u001b[31m",
            progress.FirstFailure);
    }

    [Fact]
    public void A_first_failure_of_plain_text_is_kept_as_it_is() =>
        Assert.Equal("e1: storing order 7 failed", Failed("e1", "storing order 7 failed"));

    private static string? Failed(string entryId, string reason)
    {
        var progress = new RequestProgress(1);
        progress.MarkFailed(entryId, reason);
        return progress.FirstFailure;
    }
}
