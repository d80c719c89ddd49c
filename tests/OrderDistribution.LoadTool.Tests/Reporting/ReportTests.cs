using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.TestSupport;
using SkiaSharp;

namespace OrderDistribution.LoadTool.Tests.Reporting;

/// <summary>
/// report, from a fixed results log and the per-second series beside it, as run and ceiling write them.
/// </summary>
public sealed class ReportTests
{
    private const string Header =
        "| timestamp | model | count | cycle time s | orders/s | missing | start |\n| --- | --- | ---: | ---: | ---: " +
        "| ---: | --- |\n";

    private readonly string _folder = Directory.CreateTempSubdirectory("order-load-report-").FullName;

    [Fact]
    public async Task The_report_tables_each_model_with_its_cold_runs_apart_and_its_warm_times_against_storage_alone()
    {
        await File.WriteAllTextAsync(Path.Combine(_folder, "LOG.md"),
            "Runs on the 2-core machine.\n\n" +
            // A row from before the start column: counted as warm, and said so.
            "| timestamp | model | count | cycle time s | orders/s | missing |\n| --- | --- | ---: | ---: | ---: | " +
            "---: |\n" +
            "| 2026-11-20T08:00:00 | pubsub-single | 10000 | 44.9 | 223 | 0 |\n" +
            "| 2026-11-23T10:00:00 | pubsub-bulk | 10000 | 37.3 | 268 | 0 | cold |\n" +
            "| 2026-11-23T10:01:00 | pubsub-bulk | 10000 | 26.8 | 373 | 0 | warm |\n" +
            "| 2026-11-23T10:02:00 | pubsub-bulk | 10000 | 26.7 | 375 | 0 | warm |\n" +
            "| 2026-11-23T10:03:00 | pubsub-bulk | 10000 | 28.0 | 357 | 0 | warm |\n" +
            "| 2026-11-23T11:00:00 | pubsub-bulk | 10000 | 40.4 | 248 | 0 | cold |\n" +
            "| 2026-11-23T10:10:00 | pubsub-single | 10000 | 56.2 | 178 | 0 | cold |\n" +
            // Incomplete: left out of the times.
            "| 2026-11-23T10:11:00 | pubsub-single | 10000 | 300.0 | 33 | 120 | warm |\n" +
            "| 2026-11-23T10:20:00 | bindings | 10000 | 77.3 | 129 | 0 | warm |\n" +
            "| 2026-11-23T10:30:00 | storage-alone | 10000 | 22.4 | 446 | 0 |  |\n" +
            "| 2026-11-23T10:31:00 | storage-alone | 10000 | 25.6 | 391 | 0 |  |\n");
        await WriteSeriesAsync("20261123-100100-pubsub-bulk.csv", 100, 300);
        await WriteSeriesAsync("20261123-100200-pubsub-bulk.csv", 200, 100, 50);
        await WriteSeriesAsync("20261123-103000-storage-alone.csv", 400, 600);
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Path.Combine(_folder, "LOG.md"));

        Assert.True(exit == 0, cli.Output);
        var table = (await File.ReadAllLinesAsync(Path.Combine(_folder, "report.md")))
            .Where(l => l.StartsWith("| ", StringComparison.Ordinal)).Skip(2).ToList();
        Assert.Equal(
            [
                "| pubsub-bulk | 5 | 0 | 38.85 (37.3–40.4, 2 runs) | 3 | 27.17 | 26.80 | 26.7 | 28.0 | 368 | 1.13 | " +
                "1.62 | — | — | — | — |",
                "| pubsub-single | 3 | 1 | 56.2 | 1 | 44.90 | 44.90 | 44.9 | 44.9 | 223 | 1.87 | 2.34 | — | — | — | " +
                "— |",
                "| bindings | 1 | 0 | — | 1 | 77.30 | 77.30 | 77.3 | 77.3 | 129 | 3.22 | — | — | — | — | — |",
                "| storage-alone | 2 | 0 | — | 2 | 24.00 | 24.00 | 22.4 | 25.6 | 417 | 1.00 | — | — | — | — | — |",
            ],
            table);
        var text = await File.ReadAllTextAsync(Path.Combine(_folder, "report.md"));
        Assert.Contains("1 runs carry no cold or warm mark", text, StringComparison.Ordinal);
        Assert.Contains("3 of 11 runs kept their series", text, StringComparison.Ordinal);
        // A log with a bindings row says what a local RabbitMQ crash may lose.
        Assert.Contains("`bindings.rabbitmq` publishes without publisher confirms", text, StringComparison.Ordinal);
        Assert.Contains("![Cycle time of every burst per model, against storage alone](report.png)", text,
            StringComparison.Ordinal);
        AssertRealPng(Path.Combine(_folder, "report.png"), ComparisonChart.Width, 920);
    }

    [Fact]
    public async Task Report_leaves_out_the_rows_of_bursts_that_overlapped_and_says_how_many()
    {
        await File.WriteAllTextAsync(Path.Combine(_folder, "LOG.md"), ResultsRow.Header +
            // Two runs at once on one store, as two terminals did: neither is a measurement.
            "| 2026-11-26T07:00:02 | pubsub-bulk | 5000 | 15.6 | 320 | 0 | warm | 483920 | 2026-11-26T07:00:00.000Z " +
            "| 2026-11-26T07:00:20.000Z |\n" +
            "| 2026-11-26T07:00:04 | pubsub-bulk | 5000 | 9.9 | 503 | 0 | warm | 512345 | 2026-11-26T07:00:03.000Z | " +
            "2026-11-26T07:00:15.000Z |\n" +
            // One after the other, to the millisecond: both count.
            "| 2026-11-26T07:01:02 | pubsub-bulk | 5000 | 20.1 | 249 | 0 | warm | 600001 | 2026-11-26T07:01:00.000Z " +
            "| 2026-11-26T07:01:25.000Z |\n" +
            "| 2026-11-26T07:01:27 | pubsub-bulk | 5000 | 20.3 | 246 | 0 | warm | 600002 | 2026-11-26T07:01:25.000Z " +
            "| 2026-11-26T07:01:50.000Z |\n" +
            // A row from before rows said when: kept.
            "| 2026-11-23T10:01:00 | pubsub-bulk | 5000 | 20.2 | 248 | 0 | warm |\n");
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Path.Combine(_folder, "LOG.md"));

        Assert.True(exit == 0, cli.Output);
        Assert.Contains("3 runs of 1 models compared (2 left out: their bursts overlapped another's)", cli.Output,
            StringComparison.Ordinal);
        var text = await File.ReadAllTextAsync(Path.Combine(_folder, "report.md"));
        Assert.Contains(
            "3 runs (2 more left out: their bursts overlapped another's on the store, so none of them measured it " +
            "alone)", text, StringComparison.Ordinal);
        Assert.Contains("| pubsub-bulk | 3 | 0 | — | 3 | 20.20 | 20.20 | 20.1 | 20.3 | 248 | — | — |", text,
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task Each_models_series_is_the_mean_of_its_runs_second_by_second()
    {
        var rows = new[]
        {
            new ResultsRow("2026-11-23T10:01:00", "pubsub-bulk", 400, 2.0, 0, BurstStart.Warm),
            new ResultsRow("2026-11-23T10:02:00", "pubsub-bulk", 350, 3.0, 0, BurstStart.Warm),
            new ResultsRow("2026-11-23T10:03:00", "pubsub-bulk", 500, 1.5, 0, BurstStart.Cold),
        };
        await WriteSeriesAsync("20261123-100100-pubsub-bulk.csv", 100, 300);
        await WriteSeriesAsync("20261123-100200-pubsub-bulk.csv", 200, 100, 50);

        var report = ComparisonReport.From(rows, new Dictionary<ResultsRow, StoredSeries>
        {
            [rows[0]] = await SeriesCsv.ReadAsync(Path.Combine(_folder, "20261123-100100-pubsub-bulk.csv"), default),
            [rows[1]] = await SeriesCsv.ReadAsync(Path.Combine(_folder, "20261123-100200-pubsub-bulk.csv"), default),
        });

        var bulk = Assert.Single(report.Models);
        Assert.Equal([150, 200, 25], bulk.WarmSeries);
        Assert.Empty(bulk.ColdSeries);
        Assert.Equal(2, bulk.RunsWithSeries);
        Assert.Null(report.Storage);
    }

    [Fact]
    public void Models_are_listed_bulk_single_bindings_each_variant_beside_its_model_and_others_after_them()
    {
        string[] labels = ["other", "bindings", "pubsub-single (appMaxConcurrency 64)", "storage-alone",
            "pubsub-single", "pubsub-bulk"];
        var rows = labels.Select(label => new ResultsRow("2026-11-23", label, 10_000, 30.0, 0, BurstStart.Warm))
            .ToList();

        var report = ComparisonReport.From(rows, new Dictionary<ResultsRow, StoredSeries>());

        Assert.Equal(["pubsub-bulk", "pubsub-single", "pubsub-single (appMaxConcurrency 64)", "bindings", "other"],
            report.Models.Select(m => m.Label));
        Assert.Equal("storage-alone", report.Storage?.Label);
    }

    [Fact]
    public async Task A_log_whose_runs_kept_no_series_gets_the_cycle_time_chart_alone_and_the_report_says_why()
    {
        await File.WriteAllTextAsync(Path.Combine(_folder, "LOG.md"), Header +
            "| 2026-11-23 | pubsub-bulk | 10000 | 37.3 | 268 | 0 | cold |\n" +
            "| 2026-11-23 | pubsub-bulk | 10000 | 26.8 | 373 | 0 | warm |\n");
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Path.Combine(_folder, "LOG.md"), "--output",
            Path.Combine(_folder, "out", "compare.md"));

        Assert.True(exit == 0, cli.Output);
        var text = await File.ReadAllTextAsync(Path.Combine(_folder, "out", "compare.md"));
        Assert.Contains("no run in this log kept its series", text, StringComparison.Ordinal);
        Assert.Contains("no `storage-alone` row in this log", text, StringComparison.Ordinal);
        Assert.Contains("| pubsub-bulk | 2 | 0 | 37.3 | 1 | 26.80 | 26.80 | 26.8 | 26.8 | 373 | — | — |", text,
            StringComparison.Ordinal);
        Assert.DoesNotContain("publisher confirms", text, StringComparison.Ordinal);
        AssertRealPng(Path.Combine(_folder, "out", "compare.png"), ComparisonChart.Width, 460);
    }

    [Fact]
    public async Task A_model_whose_last_run_kept_its_queues_gets_the_waiting_panel_and_a_line_of_where_it_waited()
    {
        await File.WriteAllTextAsync(Path.Combine(_folder, "LOG.md"), Header +
            "| 2026-11-23T10:00:00 | pubsub-bulk | 10000 | 37.3 | 268 | 0 | cold |\n" +
            "| 2026-11-23T10:01:00 | pubsub-bulk | 10000 | 26.8 | 373 | 0 | warm |\n" +
            "| 2026-11-23T10:10:00 | bindings | 10000 | 56.2 | 178 | 0 | warm |\n");
        await WriteSeriesAsync("20261123-100000-pubsub-bulk.csv", 100, 300);
        await WriteSeriesAsync("20261123-100100-pubsub-bulk.csv", 200, 100);
        // The warm run's queues (the model's last run that kept them); the earlier cold one's are not reported.
        await File.WriteAllTextAsync(Path.Combine(_folder, "20261123-100000-pubsub-bulk.queues.csv"),
            "second,q-order-ingress,q-order-express,q-order-standard\n0,9000,0,0\n1,0,0,0\n");
        await File.WriteAllTextAsync(Path.Combine(_folder, "20261123-100100-pubsub-bulk.queues.csv"),
            "second,q-order-ingress,q-order-express,q-order-standard\n0,10000,0,0\n1,4000,3100,2800\n" +
            "2,0,1200,0\n3,0,0,0\n");
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Path.Combine(_folder, "LOG.md"));

        Assert.True(exit == 0, cli.Output);
        var text = await File.ReadAllTextAsync(Path.Combine(_folder, "report.md"));
        Assert.Contains(
            "  - pubsub-bulk: q-order-ingress at most 10000 (second 0), none from second 2; q-order-express at most " +
            "3100 (second 1), none from second 3; q-order-standard at most 2800 (second 1), none from second 2.\n",
            text, StringComparison.Ordinal);
        Assert.DoesNotContain("  - bindings:", text, StringComparison.Ordinal);
        // Three panels: the cycle times, the orders stored per second, the orders waiting.
        AssertRealPng(Path.Combine(_folder, "report.png"), ComparisonChart.Width, 3 * 460);
    }

    [Fact]
    public async Task A_missing_log_is_named_in_one_line_and_exits_2()
    {
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Path.Combine(_folder, "no-such", "LOG.md"));

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.StartsWith("No results log at",
            Assert.Single(cli.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_example_report_and_the_comparison_page_hold_what_report_renders_from_its_log_today()
    {
        var example = Path.Combine(RepositoryRoot.Path, "docs", "compare-example");
        File.Copy(Path.Combine(example, "LOG.md"), Path.Combine(_folder, "LOG.md"));
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Path.Combine(_folder, "LOG.md"));

        Assert.True(exit == 0, cli.Output);
        Assert.Equal(await File.ReadAllTextAsync(Path.Combine(example, "report.md")),
            await File.ReadAllTextAsync(Path.Combine(_folder, "report.md")));
        var table = (await File.ReadAllLinesAsync(Path.Combine(_folder, "report.md")))
            .Where(l => l.StartsWith("| ", StringComparison.Ordinal)).ToList();
        var page = await File.ReadAllLinesAsync(Path.Combine(RepositoryRoot.Path, "docs", "compare.md"));
        var at = Array.IndexOf(page, table[0]);
        Assert.True(at >= 0, "docs/compare.md does not hold the example's table");
        Assert.Equal(table, page.Skip(at).Take(table.Count));
    }

    /// <summary>A PNG that decodes to the expected size and is no blank canvas.</summary>
    private static void AssertRealPng(string path, int width, int height)
    {
        var bytes = File.ReadAllBytes(path);
        Assert.Equal([0x89, (byte)'P', (byte)'N', (byte)'G'], bytes[..4]);
        using var image = SKBitmap.Decode(bytes);
        Assert.NotNull(image);
        Assert.Equal((width, height), (image.Width, image.Height));
        Assert.True(image.Pixels.Distinct().Count() > 20, "the chart is (nearly) one colour");
    }

    private Task WriteSeriesAsync(string name, params int[] perSecond)
    {
        var cumulative = 0;
        var lines = perSecond.Select((stored, second) => $"{second},{stored},{cumulative += stored}");
        return File.WriteAllTextAsync(Path.Combine(_folder, name),
            "second,stored,cumulative\n" + string.Join('\n', lines) + "\n");
    }
}
