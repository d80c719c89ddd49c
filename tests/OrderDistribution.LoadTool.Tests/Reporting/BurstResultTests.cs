using System.Reflection;
using System.Text.Json;
using OrderDistribution.LoadTool.Commands;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Tests.Reporting;

/// <summary>
/// The burst result: one JSON line per burst in the results file, and the views written from it (the Markdown log,
/// the CSVs), never read back.
/// </summary>
public sealed class BurstResultTests : IDisposable
{
    private static readonly DateTimeOffset ScheduledAt = new(2026, 11, 23, 9, 41, 7, 512, TimeSpan.Zero);

    private readonly TempFolder _folder = new("order-load-results-");

    /// <summary>A result with every part: cost, queues and what Azure said.</summary>
    public static BurstResult Whole() =>
        new("pubsub-bulk", 483_920, BurstStart.Warm, 10_000, 0, 37.3, ScheduledAt, ScheduledAt.AddSeconds(-2.25),
            ScheduledAt.AddSeconds(39.125), [4_000, 6_000])
        {
            Cost = new BurstCost(
                [
                    new ComponentCost("distributor", ComponentRole.App, 5.26, 140),
                    new ComponentCost("store", ComponentRole.Store, 19.8, 400),
                ],
                20, new ContainerAppsPrices(0.000024, 0.000003, "USD")),
            Queues = new QueueSeries(["q-order-ingress"],
                [new QueueSample(0, new Dictionary<string, long> { ["q-order-ingress"] = 10_000 })])
            {
                Fault = "1 of 3 readings failed, the first: refused",
            },
            Azure = new AzureFacts("distributor=1", "distributor=3", "off",
                [new AppCost("distributor", AllocatedSize.Parse("0.5", "1Gi")!, 2, 18, 170, 0.0018)],
                new TelemetryCost(0.02, 0.000044)),
        };

    public void Dispose() => _folder.Dispose();

    [Fact]
    public void A_result_round_trips_through_its_json_line_with_every_field()
    {
        var result = Whole();

        var line = ResultsFile.Line(result);
        var read = ResultsFile.Parse(line);

        Assert.DoesNotContain('\n', line);
        Assert.Equal(line, ResultsFile.Line(read));
        using var json = JsonDocument.Parse(line);
        var written = json.RootElement.EnumerateObject().Select(p => p.Name).ToHashSet();
        var fields = typeof(BurstResult).GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Where(p => p.CanWrite || p.Name == nameof(BurstResult.Complete))
            .Select(p => JsonNamingPolicy.CamelCase.ConvertName(p.Name));
        Assert.Equal(fields.Order(), written.Order());
        Assert.True(json.RootElement.GetProperty("complete").GetBoolean());
        Assert.Equal("warm", json.RootElement.GetProperty("start").GetString());
        Assert.Equal(ScheduledAt, read.ScheduledAt);
        Assert.Equal(ScheduledAt.AddSeconds(39.125), read.Ended);
        Assert.Equal([4_000, 6_000], read.StoredPerSecond);
        Assert.Equal(Whole().Cost!.Price, read.Cost!.Price);
        Assert.Equal(10_000, read.Queues!.Samples[0].Waiting["q-order-ingress"]);
        Assert.Equal(170, Assert.Single(read.Azure!.Apps).PeakMib);
    }

    [Fact]
    public async Task Each_result_appended_renders_the_markdown_log_beside_the_file_from_every_result()
    {
        var path = Path.Combine(_folder.Path, "LOG.jsonl");
        await ResultsFile.AppendAsync(path, Whole(), default);
        await ResultsFile.AppendAsync(path,
            new BurstResult("bindings", 500_001, null, 10_000, 10_000, null, ScheduledAt.AddMinutes(4), null, null, []),
            default);

        var results = await ResultsFile.ReadAsync(path, default);
        var markdown = await File.ReadAllLinesAsync(Path.Combine(_folder.Path, "LOG.md"));

        Assert.Equal(["pubsub-bulk", "bindings"], results.Select(r => r.Label));
        var table = markdown.SkipWhile(l => !l.StartsWith('|')).ToList();
        Assert.Equal(ResultsMarkdown.Header, table[0] + "\n" + table[1] + "\n");
        Assert.Equal(
            "| 2026-11-23T09:41:07 | pubsub-bulk | 10000 | 37.3 | 268 | 0 | warm | 483920 | 2026-11-23T09:41:05.262Z " +
            "| 2026-11-23T09:41:46.637Z | yes | 5.26 |  |  | 19.80 | 140 | 0.000134 |", table[2]);
        // Nothing stored: no cycle time, no rate, not complete.
        Assert.Equal(
            "| 2026-11-23T09:45:07 | bindings | 10000 |  |  | 10000 |  | 500001 |  |  | no |  |  |  |  |  |  |",
            table[3]);
    }

    [Fact]
    public async Task A_line_that_is_no_result_is_refused_naming_the_file_and_the_line()
    {
        var path = Path.Combine(_folder.Path, "LOG.jsonl");
        await File.WriteAllTextAsync(path, ResultsFile.Line(Whole()) + "\n| a | Markdown | row |\n");

        var refused = await Assert.ThrowsAsync<InvalidDataException>(() => ResultsFile.ReadAsync(path, default));

        Assert.StartsWith($"{path} line 2 is not a burst result", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Results_are_never_written_over_the_markdown_log_they_render()
    {
        var cli = new Cli();

        var exit = await cli.RunAsync("ceiling", "--results", Path.Combine(_folder.Path, "LOG.md"), "--storage",
            Azurite.ConnectionStringFor(Azurite.FreePort()));

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.StartsWith("--results takes a results file's path", cli.Output, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(_folder.Path));
    }

    [Fact]
    public async Task A_results_csvs_are_written_beside_the_file_under_its_scheduled_second_burst_and_label()
    {
        var report = new WatchReport(2, new Dictionary<string, int>(), [], [], ScheduledAt, ScheduledAt.AddSeconds(1.5))
        {
            StoredTimes = [ScheduledAt.AddSeconds(0.5), ScheduledAt.AddSeconds(1.5)],
        };
        var result = BurstResult.Of("pubsub-single", report, BurstStart.Warm, 300_001, ScheduledAt, ScheduledAt)
            with
        { Cost = Whole().Cost, Queues = Whole().Queues };

        var written = await SeriesCsv.WriteBesideAsync(result, Path.Combine(_folder.Path, "LOG.jsonl"), default);

        Assert.Equal("20261123-094107-300001-pubsub-single.csv", Path.GetFileName(written));
        Assert.Equal("second,stored,cumulative\n0,1,1\n1,1,2\n", await File.ReadAllTextAsync(written));
        Assert.StartsWith(BurstCost.CsvHeader + "\ndistributor,app,5.260,140.0\n",
            await File.ReadAllTextAsync(Path.ChangeExtension(written, ".cost.csv")), StringComparison.Ordinal);
        Assert.Equal("second,q-order-ingress\n0,10000\n",
            await File.ReadAllTextAsync(Path.ChangeExtension(written, ".queues.csv")));
    }

    [Fact]
    public void An_incomplete_results_csv_says_so_and_two_bursts_in_one_second_keep_two_files()
    {
        var first = new BurstResult("pubsub-bulk", 300_001, null, 10, 0, 2, ScheduledAt, null, null, []);

        Assert.Equal("20261123-094107-300001-pubsub-bulk.csv", first.CsvFileName());
        Assert.Equal("20261123-094107-300002-pubsub-bulk-incomplete.csv",
            (first with { Burst = 300_002, Missing = 1 }).CsvFileName());
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
