using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Bursts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>The command line checks every value before it acts, and every failure names its cause.</summary>
public sealed class CommandLineTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IDisposable
{
    private readonly TempFolder _folder = new("order-load-");

    public void Dispose() => _folder.Dispose();

    [Theory]
    [InlineData("--count", "0", "--count")]
    [InlineData("--count", "1000001", "--count")]
    [InlineData("--model", "foo", "foo")]
    [InlineData("--timeout", "-1", "--timeout")]
    [InlineData("--poll", "5", "--poll")]
    [InlineData("--invalid-rate", "1", "--invalid-rate")]
    [InlineData("--max-bulk-bytes", "10", "--max-bulk-bytes")]
    [InlineData("--schedule-delay", "0", "--schedule-delay")]
    [InlineData("--sidecar", "localhost:3501", "--sidecar")]
    [InlineData("--model", "kafka", "kafka")]
    public async Task Run_refuses_a_bad_value_before_it_touches_storage_naming_the_option(string option, string value,
        string named)
    {
        // Nothing listens at this storage: had run called it first, it would exit 3, not 2.
        var cli = new Cli();
        var folder = Path.Combine(_folder.Path, "run");

        var exit = await cli.RunAsync("run", option, value, "--storage",
            Azurite.ConnectionStringFor(Azurite.FreePort()),
            "--orders", Path.Combine(folder, "orders.json"), "--state", Path.Combine(folder, "schedule.json"),
                "--results", Path.Combine(folder, "LOG.jsonl"));

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains(named, cli.Output, StringComparison.Ordinal);
        Assert.False(Directory.Exists(folder), "run wrote nothing");
    }

    [Fact]
    public async Task An_unknown_command_is_named_in_the_error()
    {
        var cli = new Cli();

        Assert.Equal(ExitCodes.BadInput, await cli.RunAsync("frobnicate"));
        Assert.Contains("frobnicate", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_sidecar_that_answers_401_is_named_as_wanting_its_api_token_with_the_fix()
    {
        await using var sidecar = LoopbackServer.Create();
        sidecar.Run(context =>
        {
            context.Response.StatusCode = StatusCodes.Status401Unauthorized;
            return Task.CompletedTask;
        });
        await sidecar.StartAsync();
        await OrderFile.WriteAsync(Path.Combine(_folder.Path, "orders.json"),
            OrderSet.ValidOnly(OrderGenerator.Generate(10, seed: 1)), default);
        var cli = new Cli();

        var exit = await cli.RunAsync("schedule", "--sidecar", LoopbackServer.AddressOf(sidecar).ToString(),
            "--storage", storage.Azurite.ConnectionString,
            "--orders", Path.Combine(_folder.Path, "orders.json"),
            "--state", Path.Combine(_folder.Path, "schedule.json"));

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains("refused the load tool (401)", cli.Output, StringComparison.Ordinal);
        Assert.Contains("DAPR_API_TOKEN", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("not scheduled", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("no metadata API", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void The_result_line_is_one_line_on_an_80_column_console()
    {
        var output = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            Interactive = InteractionSupport.No,
            Out = new AnsiConsoleOutput(output),
        });
        console.Profile.Width = 80;
        var at = new DateTimeOffset(2026, 1, 1, 12, 0, 0, TimeSpan.Zero);
        var report = new WatchReport(10_000, OrderTopology.Outboxes.ToDictionary(o => o, _ => 5_000), [], [], at,
            at.AddSeconds(8.2))
        {
            StoredTimes = [at.AddSeconds(1), at.AddSeconds(8.2)],
        };

        BurstSteps.PrintResult(console, report, "pubsub-bulk");

        var line = Assert.Single(output.ToString().Split('\n'),
            l => l.StartsWith("pubsub-bulk:", StringComparison.Ordinal));
        Assert.EndsWith("0 missing, 0 duplicated", line.TrimEnd('\r'), StringComparison.Ordinal);
        Assert.True(line.Length > 80, "the line is longer than the console, and still one line");
    }
}
