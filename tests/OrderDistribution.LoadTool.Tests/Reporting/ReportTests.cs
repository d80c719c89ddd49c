using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.TestSupport;
using SkiaSharp;

namespace OrderDistribution.LoadTool.Tests.Reporting;

/// <summary>
/// report, from fixed results as run and ceiling write them.
/// </summary>
public sealed class ReportTests : IDisposable
{
    private static readonly DateTimeOffset Day = new(2026, 11, 23, 10, 0, 0, TimeSpan.Zero);

    private readonly TempFolder _folder = new("order-load-report-");

    private string Results => Path.Combine(_folder.Path, "LOG.jsonl");

    public void Dispose() => _folder.Dispose();

    [Fact]
    public async Task The_report_tables_each_model_with_its_cold_runs_apart_and_its_warm_times_against_storage_alone()
    {
        await WriteAsync(
            // A run not told its start: counted as warm, and said so.
            Run("pubsub-single", null, 44.9, minute: -3000),
            Run("pubsub-bulk", BurstStart.Cold, 37.3),
            Run("pubsub-bulk", BurstStart.Warm, 26.8, minute: 1, perSecond: [100, 300]),
            Run("pubsub-bulk", BurstStart.Warm, 26.7, minute: 2, perSecond: [200, 100, 50]),
            Run("pubsub-bulk", BurstStart.Warm, 28.0, minute: 3),
            Run("pubsub-bulk", BurstStart.Cold, 40.4, minute: 60),
            Run("pubsub-single", BurstStart.Cold, 56.2, minute: 10),
            // Incomplete: left out of the times.
            Run("pubsub-single", BurstStart.Warm, 300.0, missing: 120, minute: 11),
            Run("bindings", BurstStart.Warm, 77.3, minute: 20),
            Run("storage-alone", null, 22.4, minute: 30, perSecond: [400, 600]),
            Run("storage-alone", null, 25.6, minute: 31));
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Results);

        Assert.True(exit == 0, cli.Output);
        var table = (await File.ReadAllLinesAsync(Path.Combine(_folder.Path, "report.md")))
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
        var text = await File.ReadAllTextAsync(Path.Combine(_folder.Path, "report.md"));
        Assert.Contains("From `LOG.jsonl`: 11 runs.", text, StringComparison.Ordinal);
        Assert.Contains("1 runs carry no cold or warm mark", text, StringComparison.Ordinal);
        Assert.Contains("3 of 11 runs kept their series", text, StringComparison.Ordinal);
        // Results with a bindings run say what a local RabbitMQ crash may lose.
        Assert.Contains("`bindings.rabbitmq` publishes without publisher confirms", text, StringComparison.Ordinal);
        Assert.Contains("![Cycle time of every burst per model, against storage alone](report.png)", text,
            StringComparison.Ordinal);
        AssertRealPng(Path.Combine(_folder.Path, "report.png"), ComparisonChart.Width, 920);
    }

    [Fact]
    public async Task Report_leaves_out_the_runs_of_bursts_that_overlapped_and_says_how_many()
    {
        var at = new DateTimeOffset(2026, 11, 26, 7, 0, 0, TimeSpan.Zero);
        await WriteAsync(
            // Two runs at once on one store, as two terminals did: neither is a measurement.
            Held(Run("pubsub-bulk", BurstStart.Warm, 15.6), at, at.AddSeconds(20)),
            Held(Run("pubsub-bulk", BurstStart.Warm, 9.9), at.AddSeconds(3), at.AddSeconds(15)),
            // One after the other, to the millisecond: both count.
            Held(Run("pubsub-bulk", BurstStart.Warm, 20.1), at.AddSeconds(60), at.AddSeconds(85)),
            Held(Run("pubsub-bulk", BurstStart.Warm, 20.3), at.AddSeconds(85), at.AddSeconds(110)),
            // A hand-made result that does not say when: kept.
            Run("pubsub-bulk", BurstStart.Warm, 20.2) with { Count = 5_000 });
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Results);

        Assert.True(exit == 0, cli.Output);
        Assert.Contains("3 runs of 1 models compared (2 left out: their bursts overlapped another's)", cli.Output,
            StringComparison.Ordinal);
        var text = await File.ReadAllTextAsync(Path.Combine(_folder.Path, "report.md"));
        Assert.Contains(
            "3 runs (2 more left out: their bursts overlapped another's on the store, so none of them measured it " +
            "alone)", text, StringComparison.Ordinal);
        Assert.Contains("| pubsub-bulk | 3 | 0 | — | 3 | 20.20 | 20.20 | 20.1 | 20.3 | 248 | — | — |", text,
            StringComparison.Ordinal);
    }

    [Fact]
    public void Each_models_series_is_the_mean_of_its_runs_second_by_second()
    {
        var report = ComparisonReport.From(
        [
            Run("pubsub-bulk", BurstStart.Warm, 2.0, perSecond: [100, 300]),
            Run("pubsub-bulk", BurstStart.Warm, 3.0, perSecond: [200, 100, 50]),
            Run("pubsub-bulk", BurstStart.Cold, 1.5),
        ]);

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

        var report = ComparisonReport.From([.. labels.Select(label => Run(label, BurstStart.Warm, 30.0))]);

        Assert.Equal(["pubsub-bulk", "pubsub-single", "pubsub-single (appMaxConcurrency 64)", "bindings", "other"],
            report.Models.Select(m => m.Label));
        Assert.Equal("storage-alone", report.Storage?.Label);
    }

    [Fact]
    public async Task Results_that_kept_no_series_get_the_cycle_time_chart_alone_and_the_report_says_why()
    {
        await WriteAsync(Run("pubsub-bulk", BurstStart.Cold, 37.3), Run("pubsub-bulk", BurstStart.Warm, 26.8));
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Results, "--output", Path.Combine(_folder.Path, "out", "compare.md"));

        Assert.True(exit == 0, cli.Output);
        var text = await File.ReadAllTextAsync(Path.Combine(_folder.Path, "out", "compare.md"));
        Assert.Contains("no run in this file kept its series", text, StringComparison.Ordinal);
        Assert.Contains("no `storage-alone` run in this file", text, StringComparison.Ordinal);
        Assert.Contains("| pubsub-bulk | 2 | 0 | 37.3 | 1 | 26.80 | 26.80 | 26.8 | 26.8 | 373 | — | — |", text,
            StringComparison.Ordinal);
        Assert.DoesNotContain("publisher confirms", text, StringComparison.Ordinal);
        AssertRealPng(Path.Combine(_folder.Path, "out", "compare.png"), ComparisonChart.Width, 460);
    }

    [Fact]
    public async Task A_model_whose_last_run_kept_its_queues_gets_the_waiting_panel_and_a_line_of_where_it_waited()
    {
        string[] queues = ["q-order-ingress", "q-order-express", "q-order-standard"];
        QueueSample Sample(int second, params long[] waiting) =>
            new(second, queues.Zip(waiting).ToDictionary(q => q.First, q => q.Second));
        await WriteAsync(
            // The earlier cold run's queues are not reported: the model's last warm run kept them.
            Run("pubsub-bulk", BurstStart.Cold, 37.3, perSecond: [100, 300]) with
            {
                Queues = new QueueSeries(queues, [Sample(0, 9000, 0, 0), Sample(1, 0, 0, 0)]),
            },
            Run("pubsub-bulk", BurstStart.Warm, 26.8, minute: 1, perSecond: [200, 100]) with
            {
                Queues = new QueueSeries(queues,
                [
                    Sample(0, 10000, 0, 0), Sample(1, 4000, 3100, 2800), Sample(2, 0, 1200, 0), Sample(3, 0, 0, 0),
                ]),
            },
            Run("bindings", BurstStart.Warm, 56.2, minute: 10));
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Results);

        Assert.True(exit == 0, cli.Output);
        var text = await File.ReadAllTextAsync(Path.Combine(_folder.Path, "report.md"));
        Assert.Contains(
            "  - pubsub-bulk: q-order-ingress at most 10000 (second 0), none from second 2; q-order-express at most " +
            "3100 (second 1), none from second 3; q-order-standard at most 2800 (second 1), none from second 2.\n",
            text, StringComparison.Ordinal);
        Assert.DoesNotContain("  - bindings:", text, StringComparison.Ordinal);
        // Three panels: the cycle times, the orders stored per second, the orders waiting.
        AssertRealPng(Path.Combine(_folder.Path, "report.png"), ComparisonChart.Width, 3 * 460);
    }

    [Fact]
    public async Task A_missing_results_file_is_named_in_one_line_and_exits_2()
    {
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Path.Combine(_folder.Path, "no-such", "LOG.jsonl"));

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.StartsWith("No results file at",
            Assert.Single(cli.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_example_report_and_the_comparison_page_hold_what_report_renders_from_its_results_today()
    {
        var example = Path.Combine(RepositoryRoot.Path, "docs", "compare-example");
        File.Copy(Path.Combine(example, "LOG.jsonl"), Results);
        var cli = new Cli();

        var exit = await cli.RunAsync("report", Results);

        Assert.True(exit == 0, cli.Output);
        Assert.Equal(await File.ReadAllTextAsync(Path.Combine(example, "report.md")),
            await File.ReadAllTextAsync(Path.Combine(_folder.Path, "report.md")));
        var table = (await File.ReadAllLinesAsync(Path.Combine(_folder.Path, "report.md")))
            .Where(l => l.StartsWith("| ", StringComparison.Ordinal)).ToList();
        var page = await File.ReadAllLinesAsync(Path.Combine(RepositoryRoot.Path, "docs", "compare.md"));
        var at = Array.IndexOf(page, table[0]);
        Assert.True(at >= 0, "docs/compare.md does not hold the example's table");
        Assert.Equal(table, page.Skip(at).Take(table.Count));
    }

    /// <summary>
    /// A run of 10,000 orders scheduled <paramref name="minute"/> minutes into the day, as run records it.
    /// </summary>
    private static BurstResult Run(string label, BurstStart? start, double seconds, int missing = 0, int minute = 0,
        int[]? perSecond = null) =>
        new(label, null, start, 10_000, missing, seconds, Day.AddMinutes(minute), null, null, perSecond ?? []);

    private static BurstResult Held(BurstResult result, DateTimeOffset began, DateTimeOffset ended) =>
        result with { Count = 5_000, Began = began, Ended = ended };

    private Task WriteAsync(params BurstResult[] results) =>
        File.WriteAllLinesAsync(Results, results.Select(ResultsFile.Line));

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
}
