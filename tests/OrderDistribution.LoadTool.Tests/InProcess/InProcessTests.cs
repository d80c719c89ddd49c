using System.Globalization;
using System.Text.RegularExpressions;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.InProcess;

/// <summary>
/// <c>in-process</c> end to end: the real apps in the tool's process behind the sidecar emulator, into a real Azurite
/// that the command starts itself (no store given, and none answers at Azurite's own address), every order checked in
/// the outboxes.
/// </summary>
public sealed class InProcessTests : IDisposable
{
    private readonly TempFolder _folder = new("order-load-");

    [Theory]
    [InlineData("pubsub-bulk")]
    [InlineData("pubsub-single")]
    [InlineData("bindings")]
    public async Task A_burst_through_the_trio_in_process_stores_every_valid_order_once_and_is_logged_under_its_model(
        string model)
    {
        var cli = new Cli();
        var exit = await cli.RunAsync("in-process", "--model", model, "--count", "300", "--invalid-rate", "0.02",
            "--seed", "3",
            "--timeout", "120", "--results", Path.Combine(_folder.Path, "LOG.jsonl"));

        Assert.True(exit == 0, cli.Output);
        Assert.Contains("(Azurite started for this run)", cli.Output, StringComparison.Ordinal);
        Assert.Contains($"in-process-{model}: 294/294 orders stored", cli.Output, StringComparison.Ordinal);
        Assert.Contains(
            "0 missing, 0 duplicated; 294 valid stored, 6 poison dropped (expected), 6 dead-lettered, 0 not on the " +
            "dead-letter queue", cli.Output, StringComparison.Ordinal);
        var row = Assert.Single(await ResultsFile.ReadAsync(Path.Combine(_folder.Path, "LOG.jsonl"), default),
            r => r.Label == $"in-process-{model}");
        Assert.True(row.Complete);
        Assert.Equal(BurstStart.Cold, row.Start);
        Assert.Single(Directory.GetFiles(_folder.Path, $"*-in-process-{model}.csv"));
    }

    [Fact]
    public async Task A_warning_an_app_logs_during_the_burst_is_printed_whole_on_a_line_of_its_own()
    {
        var cli = new Cli();
        var exit = await cli.RunAsync("in-process", "--count", "40", "--invalid-rate", "0.1", "--seed", "5",
            "--timeout", "120", "--results", Path.Combine(_folder.Path, "LOG.jsonl"));

        Assert.True(exit == 0, cli.Output);
        // The poison orders are kept on the dead-letter queue by the distributor, each with its warning.
        var warnings = cli.Output.Split('\n')
            .Where(line => line.StartsWith("warn: distributor RequestRun: Dropped entry ", StringComparison.Ordinal))
            .ToList();
        Assert.True(warnings.Count == 4, cli.Output);
        Assert.All(warnings,
            line => Assert.Matches(
            @"^warn: distributor RequestRun: Dropped entry \S+ from q-order-ingress, kept on q-order-deadletter: " +
            "not an order", line));
    }

    [Fact]
    public void The_emulator_runs_as_many_binding_consumers_per_queue_as_the_local_run_renders_by_default()
    {
        var script = File.ReadAllText(Path.Combine(RepositoryRoot.Path, "scripts", "run-local.sh"));
        var setting = Regex.Match(script, """\$\{BINDING_CONSUMERS_PER_QUEUE:-(\d+)\}""");
        Assert.True(setting.Success, "scripts/run-local.sh no longer gives BINDING_CONSUMERS_PER_QUEUE a default");

        Assert.Equal(int.Parse(setting.Groups[1].Value, CultureInfo.InvariantCulture),
            new EmulatedSidecarOptions().ConcurrentBindingRequests);
    }

    [Fact]
    public async Task Report_renders_an_in_process_run_beside_the_real_models()
    {
        var log = Path.Combine(_folder.Path, "LOG.jsonl");
        var at = new DateTimeOffset(2026, 1, 1, 10, 0, 0, TimeSpan.Zero);
        await File.WriteAllLinesAsync(log,
        [
            ResultsFile.Line(new BurstResult("pubsub-bulk", 1, BurstStart.Warm, 10_000, 0, 8.2, at, null, null, [])),
            ResultsFile.Line(
                new BurstResult(
                    "in-process-bulk", 2, BurstStart.Cold, 10_000, 0, 12.5, at.AddMinutes(1), null, null, [])),
        ]);

        var cli = new Cli();
        var exit = await cli.RunAsync("report", log);

        Assert.True(exit == 0, cli.Output);
        Assert.Contains("2 runs of 2 models compared", cli.Output, StringComparison.Ordinal);
        var report = await File.ReadAllTextAsync(Path.Combine(_folder.Path, "report.md"));
        Assert.Contains("| pubsub-bulk |", report, StringComparison.Ordinal);
        Assert.Contains("| in-process-bulk |", report, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_unknown_model_is_refused_before_anything_starts()
    {
        var cli = new Cli();
        var results = Path.Combine(_folder.Path, "results");

        var exit = await cli.RunAsync("in-process", "--model", "grpc", "--results", Path.Combine(results, "LOG.jsonl"));

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains("grpc", cli.Output, StringComparison.Ordinal);
        Assert.False(Directory.Exists(results));
    }

    public void Dispose() => _folder.Dispose();
}
