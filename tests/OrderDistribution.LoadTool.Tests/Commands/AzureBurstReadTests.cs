namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// <c>azure-burst read</c> as scripts/azure-burst.sh calls it: the one line the script reads, from the schedule record
/// and the burst's result; a bad input is refused in one line with exit 2.
/// </summary>
public sealed class AzureBurstReadTests : AzureBurstFiles
{
    [Fact]
    public async Task Read_prints_the_instant_skew_window_end_and_the_bursts_result_in_one_line()
    {
        await WriteRecordAsync("125.4");
        await WriteResultsAsync(Result(40.0, 0), Result(41.2, 1), Result(38.0, 0, Instant.AddMinutes(5)));

        // 2026-11-20T10:00:00Z and ten minutes later, by this machine's clock.
        var (exit, output) = await RunAsync("read", "--results", Results, "--started", "1795168800", "--ended",
            "1795169400");

        Assert.True(exit == ExitCodes.Done, output);
        // The window is this machine's start and end in storage's time, a minute wider each side; the result is the
        // last one scheduled at the instant.
        Assert.Equal("0 2026-11-20T10:00:30Z 125 2026-11-20T10:01:05Z 2026-11-20T10:13:05Z 2026-11-20T10:12:05Z " +
                     "41.2 10 1\n", output);
    }

    [Fact]
    public async Task Without_a_schedule_record_there_is_no_instant_and_this_machines_clock_is_storages()
    {
        var (exit, output) = await RunAsync("read", "--results", Results, "--started", "1795168800", "--ended",
            "1795169400");

        Assert.True(exit == ExitCodes.Done, output);
        Assert.Equal("- - 0 2026-11-20T09:59:00Z 2026-11-20T10:11:00Z 2026-11-20T10:10:00Z - - -\n", output);
    }

    [Fact]
    public async Task While_the_burst_runs_read_gives_the_wait_for_the_instant_and_dashes_for_what_is_not_yet_known()
    {
        await WriteRecordAsync("0", Instant.AddYears(10));
        await WriteResultsAsync(Result(null, 10));

        var (exit, output) = await RunAsync("read");

        Assert.True(exit == ExitCodes.Done, output);
        var fields = output.TrimEnd('\n').Split(' ');
        Assert.InRange(long.Parse(fields[0], System.Globalization.CultureInfo.InvariantCulture),
            (long)(Instant.AddYears(10) - DateTimeOffset.UtcNow).TotalSeconds - 60,
            (long)(Instant.AddYears(10) - DateTimeOffset.UtcNow).TotalSeconds + 1);
        Assert.Equal(["2036-11-20T10:00:30Z", "0", "-", "-", "-", "-", "-", "-"], fields[1..]);
    }

    [Fact]
    public async Task A_burst_without_a_cycle_time_reads_as_a_dash_beside_its_count_and_missing()
    {
        await WriteRecordAsync("0.4");
        await WriteResultsAsync(Result(null, 10));

        var (_, output) = await RunAsync("read", "--results", Results);

        Assert.EndsWith(" - 10 10\n", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("\"soon\"", "its ClockSkewSeconds is not what one holds there")]
    [InlineData("1e300", "not a skew a query window can take")]
    public async Task A_skew_that_is_not_a_number_or_no_clocks_is_refused_in_one_line(string skew, string why)
    {
        await WriteRecordAsync(skew);

        var (exit, output) = await RunAsync("read", "--started", "1795168800", "--ended", "1795169400");

        Assert.Equal(ExitCodes.BadInput, exit);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(Record, line, StringComparison.Ordinal);
        Assert.Contains(why, line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_time_that_is_not_epoch_seconds_is_refused_naming_the_option_and_the_subcommands_help()
    {
        var (exit, output) = await RunAsync("read", "--started", "yesterday", "--ended", "1795169400");

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Equal("--started takes whole seconds since 1970-01-01 UTC (date +%s), not 'yesterday'. " +
                     "See 'order-load azure-burst read --help'.\n", output);
    }
}
