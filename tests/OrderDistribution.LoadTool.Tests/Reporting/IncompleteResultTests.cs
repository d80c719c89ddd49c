using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Tests.Reporting;

/// <summary>
/// A burst that timed out is credited with what it stored, and says it is incomplete wherever it is shown.
/// </summary>
public sealed class IncompleteResultTests
{
    private static readonly DateTimeOffset ScheduledAt = new(2026, 11, 23, 9, 41, 7, TimeSpan.Zero);

    /// <summary>3,000 of 1,000,000 stored when the watch timed out, the last 7.5 s after scheduling.</summary>
    private static readonly WatchReport TimedOut = new(
        1_000_000, OrderTopology.Outboxes.ToDictionary(o => o, _ => 1_500),
            [.. Enumerable.Range(0, 997_000).Select(i => (long)i)], [],
        ScheduledAt, ScheduledAt.AddSeconds(7.5));

    [Fact]
    public void The_line_of_a_burst_that_timed_out_gives_the_rate_of_what_was_stored_and_says_incomplete()
    {
        var line = ResultLine.Of(TimedOut, "pubsub-bulk");

        Assert.StartsWith("pubsub-bulk: 3000/1000000 orders stored, cycle time 7.500 s, 400 orders/s,", line,
            StringComparison.Ordinal);
        Assert.EndsWith("; INCOMPLETE: timed out with 997000 of 1000000 not stored, the rate is of the 3000 stored",
            line, StringComparison.Ordinal);
    }

    [Fact]
    public void A_burst_that_stored_nothing_has_no_cycle_time_and_no_rate_rather_than_blanks()
    {
        var nothing = new WatchReport(10, new Dictionary<string, int>(),
            [.. Enumerable.Range(0, 10).Select(i => (long)i)], [], ScheduledAt, null);

        var line = ResultLine.Of(nothing, "bindings");

        Assert.StartsWith("bindings: 0/10 orders stored, no cycle time, no rate,", line, StringComparison.Ordinal);
        Assert.Contains("INCOMPLETE", line, StringComparison.Ordinal);
    }

    [Fact]
    public void The_result_of_a_burst_that_timed_out_gives_the_rate_of_what_was_stored_and_is_not_complete()
    {
        var result = BurstResult.Of("pubsub-bulk", TimedOut, BurstStart.Warm, 483_920, ScheduledAt, ScheduledAt);

        Assert.False(result.Complete);
        Assert.Equal(400, result.OrdersPerSecond!.Value, 6);
        Assert.Contains("| 1000000 | 7.5 | 400 | 997000 | warm | 483920 |", ResultsMarkdown.Row(result),
            StringComparison.Ordinal);
        Assert.Equal("20261123-094107-483920-pubsub-bulk-incomplete.csv", result.CsvFileName());
        Assert.Equal(400, ResultsFile.Parse(ResultsFile.Line(result)).OrdersPerSecond!.Value, 6);
    }

    [Fact]
    public void The_report_counts_an_incomplete_run_apart_and_does_not_plot_it_as_a_time()
    {
        var complete = BurstResult.Of("pubsub-bulk", TimedOut with { Missing = [] }, BurstStart.Warm, 1, ScheduledAt,
            ScheduledAt);
        var incomplete = BurstResult.Of("pubsub-bulk", TimedOut, BurstStart.Warm, 2, ScheduledAt, ScheduledAt);

        var report = ComparisonReport.From([complete, incomplete]);

        var model = Assert.Single(report.Models);
        Assert.Equal(1, model.Incomplete);
        Assert.Equal([7.5], model.Warm);
    }
}
