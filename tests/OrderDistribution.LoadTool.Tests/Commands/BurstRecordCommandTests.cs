namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// <c>burst-record</c> as scripts/azure-burst.sh calls it: one line to read per subcommand, nothing where there is
/// nothing to say, and a bad input refused in one line with exit 2.
/// </summary>
public sealed class BurstRecordCommandTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("order-load-burst-record").FullName;

    private string Record => Path.Combine(_folder, "azure-last-schedule.json");

    private string Log => Path.Combine(_folder, "LOG.md");

    [Theory]
    [InlineData("instant", "2026-11-20T10:00:30Z")]
    [InlineData("skew", "125")]
    [InlineData("seconds-to-instant", "0")]
    // 2026-11-20T10:00:00Z and ten minutes later, by this machine's clock.
    [InlineData("window --started 1795168800 --ended 1795169400", "2026-11-20T10:01:05Z 2026-11-20T10:13:05Z")]
    [InlineData("end --ended 1795169400", "2026-11-20T10:12:05Z")]
    [InlineData("result --results {log}", "41.2 10 1")]
    public async Task Each_subcommand_prints_one_line_for_the_script_from_the_schedule_record(string args, string line)
    {
        await WriteRecordAsync("125.4");
        await File.WriteAllTextAsync(Log,
            "| 2026-11-20T10:00:30 | pubsub-bulk | 10 | 40.0 | 250 | 0 | cold |\n" +
            "| 2026-11-20T10:00:30 | pubsub-bulk | 10 | 41.2 | 243 | 1 | cold |\n" +
            "| 2026-11-20T10:05:30 | pubsub-bulk | 10 | 38.0 | 263 | 0 | warm |\n");

        var (exit, output) = await RunAsync(args);

        Assert.True(exit == ExitCodes.Done, output);
        Assert.Equal(line + "\n", output);
    }

    [Theory]
    [InlineData("instant", "")]
    [InlineData("skew", "0\n")]
    [InlineData("seconds-to-instant", "")]
    [InlineData("window --started 1795168800 --ended 1795169400", "2026-11-20T09:59:00Z 2026-11-20T10:11:00Z\n")]
    [InlineData("result --results {log}", "")]
    public async Task Without_a_schedule_record_there_is_no_instant_and_this_machines_clock_is_storages(
        string args, string output)
    {
        var (exit, printed) = await RunAsync(args);

        Assert.True(exit == ExitCodes.Done, printed);
        Assert.Equal(output, printed);
    }

    [Fact]
    public async Task A_burst_the_results_log_has_no_row_for_prints_nothing_and_one_without_a_cycle_time_a_dash()
    {
        await WriteRecordAsync("0.4");
        await File.WriteAllTextAsync(Log, "| 2026-11-20T09:00:30 | pubsub-bulk | 10 | 40.0 | 250 | 0 | cold |\n");
        Assert.Equal((ExitCodes.Done, ""), await RunAsync("result --results {log}"));

        await File.AppendAllTextAsync(Log, "| 2026-11-20T10:00:30 | pubsub-bulk | 10 |  |  | 10 | cold |\n");
        Assert.Equal((ExitCodes.Done, "- 10 10\n"), await RunAsync("result --results {log}"));
    }

    [Fact]
    public async Task The_history_says_how_many_earlier_bursts_compare_and_where()
    {
        var history = Path.Combine(_folder, "azure-bursts-dev.tsv");
        string[] args = ["burst-record", "history", "--history", history, "--model", "pubsub-bulk", "--start",
            "as given", "--tiered-compilation", "on", "--replicas-at-instant"];

        var known = new Cli();
        Assert.Equal(ExitCodes.Done, await known.RunAsync([.. args, "distributor=1"]));
        var unknown = new Cli();
        Assert.Equal(ExitCodes.Done, await unknown.RunAsync([.. args, ""]));

        Assert.Equal(
            "comparable earlier bursts (model pubsub-bulk, start as given, same replicas at the instant, tiered " +
            $"compilation on): 0, in {history}\n", known.Output);
        Assert.Equal(
            "comparable earlier bursts: unknown (the replicas at the instant were not read); compare this burst with " +
            "none\n", unknown.Output);
    }

    [Fact]
    public async Task A_burst_is_appended_to_the_history_with_its_instant_and_the_cost_the_script_read()
    {
        await WriteRecordAsync("0.4");
        var history = Path.Combine(_folder, "azure-bursts-dev.tsv");
        var costs = Path.Combine(_folder, "costs.tsv");
        await File.WriteAllTextAsync(costs, "18.00\t170\t0.001800\n");

        var (exit, output) = await RunAsync(
            $"append --history {history} --model pubsub-single --start warm --replicas-at-instant distributor=2 " +
            $"--replicas-at-end distributor=3 --costs {costs} --tiered-compilation off");

        Assert.True(exit == ExitCodes.Done, output);
        Assert.Equal(
            "2026-11-20T10:00:30Z\tpubsub-single\twarm\tdistributor=2\tdistributor=3\t18.00\t170\t0.001800\toff\t-\t-",
            (await File.ReadAllLinesAsync(history))[^1]);
    }

    [Fact]
    public async Task Tiered_compilation_other_than_on_off_or_mixed_is_refused_in_one_line_naming_what_it_takes()
    {
        var history = Path.Combine(_folder, "azure-bursts-dev.tsv");

        var (exit, output) = await RunAsync(
            $"history --history {history} --model pubsub-bulk --start warm --replicas-at-instant distributor=1 " +
            "--tiered-compilation 1");

        Assert.Equal(ExitCodes.BadInput, exit);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("on, off or mixed", line, StringComparison.Ordinal);
        Assert.False(File.Exists(history));
    }

    [Theory]
    [InlineData("\"soon\"", "skew", "its ClockSkewSeconds is not what a schedule record holds there")]
    [InlineData("1e300", "window --started 1795168800 --ended 1795169400", "not a skew a query window can take")]
    public async Task A_skew_that_is_not_a_number_or_no_clocks_is_refused_in_one_line(
        string skew, string args, string why)
    {
        await WriteRecordAsync(skew);

        var (exit, output) = await RunAsync(args);

        Assert.Equal(ExitCodes.BadInput, exit);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(Record, line, StringComparison.Ordinal);
        Assert.Contains(why, line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_time_that_is_not_epoch_seconds_is_refused_naming_the_option_and_the_subcommands_help()
    {
        var (exit, output) = await RunAsync("window --started yesterday --ended 1795169400");

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Equal(
            "--started takes whole seconds since 1970-01-01 UTC (date +%s), not 'yesterday'. " +
            "See 'order-load burst-record window --help'.\n", output);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private Task WriteRecordAsync(string skew) => File.WriteAllTextAsync(Record,
        "{\"ScheduledAt\":\"2026-11-20T10:00:30+00:00\",\"Model\":\"pubsub-bulk\",\"Count\":10," +
        $"\"OrdersFile\":\"orders.json\",\"ClockSkewSeconds\":{skew}}}");

    private async Task<(int Exit, string Output)> RunAsync(string args)
    {
        var cli = new Cli();
        var exit = await cli.RunAsync(
            ["burst-record", .. args.Replace("{log}", Log).Split(' '), "--state", Record]);
        return (exit, cli.Output);
    }
}
