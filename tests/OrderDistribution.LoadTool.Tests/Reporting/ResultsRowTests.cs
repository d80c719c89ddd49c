using OrderDistribution.LoadTool.Commands;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Tests.Reporting;

/// <summary>The results log's rows: what run and ceiling write is what report reads, old rows included.</summary>
public sealed class ResultsRowTests
{
    private static readonly DateTimeOffset ScheduledAt = new(2026, 11, 23, 9, 41, 7, 512, TimeSpan.Zero);

    [Fact]
    public async Task A_row_appended_to_the_log_reads_back_with_its_model_times_and_start()
    {
        var log = Path.Combine(Path.GetTempPath(), $"order-load-{Guid.NewGuid():N}", "LOG.md");
        await ResultsLog.AppendAsync(log,
            ResultsRow.Of(ScheduledAt, "pubsub-bulk", 10_000, TimeSpan.FromSeconds(37.3), 0, BurstStart.Cold), default);
        await ResultsLog.AppendAsync(log,
            ResultsRow.Of(ScheduledAt.AddMinutes(2), "pubsub-bulk", 10_000, TimeSpan.FromSeconds(26.84), 0,
            BurstStart.Warm), default);
        await ResultsLog.AppendAsync(log,
            ResultsRow.Of(ScheduledAt.AddMinutes(4), "bindings", 10_000, null, 10_000, null), default);

        var lines = await File.ReadAllLinesAsync(log);
        var rows = await ResultsLog.ReadAsync(log, default);

        Assert.Equal(
            "| timestamp | model | count | cycle time s | orders/s | missing | start | burst | began | ended | " +
            "complete |" +
            " apps CPU s | sidecars CPU s | broker CPU s | store CPU s | peak MiB | cost |", lines[0]);
        Assert.Equal(
            "| 2026-11-23T09:41:07 | pubsub-bulk | 10000 | 37.3 | 268 | 0 | cold |  |  |  | yes |  |  |  |  |  |  |",
            lines[2]);
        Assert.Equal(
            [
                new ResultsRow("2026-11-23T09:41:07", "pubsub-bulk", 10_000, 37.3, 0, BurstStart.Cold),
                new ResultsRow("2026-11-23T09:43:07", "pubsub-bulk", 10_000, 26.8, 0, BurstStart.Warm),
                new ResultsRow("2026-11-23T09:45:07", "bindings", 10_000, null, 10_000, null),
            ],
            rows);
        Assert.False(rows[2].Complete);
    }

    [Fact]
    public void A_row_written_before_the_start_column_existed_reads_as_a_row_without_a_start()
    {
        var row = ResultsRow.TryParse("| 2026-11-20T08:00:00 | pubsub-bulk | 10000 | 18.2 | 549 | 0 |");

        Assert.Equal(new ResultsRow("2026-11-20T08:00:00", "pubsub-bulk", 10_000, 18.2, 0, null), row);
        Assert.True(row!.Complete);
    }

    [Fact]
    public async Task A_rows_burst_and_the_time_it_held_the_store_read_back_to_the_millisecond()
    {
        var log = Path.Combine(Path.GetTempPath(), $"order-load-{Guid.NewGuid():N}", "LOG.md");
        var row = ResultsRow.Of(ScheduledAt, "pubsub-bulk", 10_000, TimeSpan.FromSeconds(37.3), 0, BurstStart.Warm) with
        {
            Burst = new BurstId(483_920),
            Began = ScheduledAt.AddSeconds(-2.25),
            Ended = ScheduledAt.AddSeconds(39.125),
        };

        await ResultsLog.AppendAsync(log, row, default);

        Assert.EndsWith(
            "| warm | 483920 | 2026-11-23T09:41:05.262Z | 2026-11-23T09:41:46.637Z | yes |  |  |  |  |  |  |",
            (await File.ReadAllLinesAsync(log))[2], StringComparison.Ordinal);
        Assert.Equal(row with { CycleSeconds = 37.3 }, Assert.Single(await ResultsLog.ReadAsync(log, default)));
    }

    [Theory]
    [InlineData("| timestamp | model | count | cycle time s | orders/s | missing | start |")]
    [InlineData("| --- | --- | ---: | ---: | ---: | ---: | --- |")]
    [InlineData("Runs on the 2-core machine, summarized by hand:")]
    [InlineData("| 2026-11-20 | pubsub-bulk | many | 18.2 | 549 | 0 |")]
    [InlineData("")]
    public void Lines_that_are_no_row_are_passed_over(string line) => Assert.Null(ResultsRow.TryParse(line));

    [Fact]
    public async Task A_rows_series_file_is_the_one_the_run_wrote_beside_the_log()
    {
        var log = Path.Combine(Path.GetTempPath(), $"order-load-{Guid.NewGuid():N}", "LOG.md");
        var report = new WatchReport(2, new Dictionary<string, int>(), [], [], ScheduledAt, ScheduledAt.AddSeconds(1.5))
        {
            StoredTimes = [ScheduledAt.AddSeconds(0.5), ScheduledAt.AddSeconds(1.5)],
        };

        var row = ResultsRow.Of("pubsub-single", report, BurstStart.Warm);
        var written = await SeriesCsv.WriteBesideAsync(StoredSeries.From(report), log, row, default);

        Assert.Equal(Path.GetFileName(written), row.CsvFileName());
        Assert.Equal([1, 1], (await SeriesCsv.ReadAsync(written, default)).PerSecond);
    }

    [Theory]
    [InlineData(new[] { "run" }, null)]
    [InlineData(new[] { "run", "--start", "cold" }, BurstStart.Cold)]
    [InlineData(new[] { "run", "--start", "warm" }, BurstStart.Warm)]
    [InlineData(new[] { "run", "--target", "azure" }, null)]
    [InlineData(new[] { "run", "--target", "azure", "--start", "cold" }, BurstStart.Cold)]
    public void A_run_records_the_start_it_is_told_and_none_untold_in_azure_too(string[] args,
        BurstStart? start)
    {
        var parsed = LoadToolCommands.Build(AnsiConsole.Create(new AnsiConsoleSettings())).Parse(args);

        Assert.Empty(parsed.Errors);
        Assert.Equal(start, RunCommand.StartOf(parsed));
    }
}
