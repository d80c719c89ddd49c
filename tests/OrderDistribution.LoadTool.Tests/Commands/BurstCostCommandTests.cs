namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// <c>burst-record app-cost</c> and <c>cost-total</c> as scripts/azure-burst.sh calls them: each app's line from the
/// metrics az read, the burst's total from the apps' shares, the prices from the environment or the file, and a bad
/// input refused in one line with exit 2.
/// </summary>
public sealed class BurstCostCommandTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("order-load-burst-cost").FullName;

    private string Costs => Path.Combine(_folder, "costs.tsv");

    private string Prices => Path.Combine(_folder, "prices.env");

    [Fact]
    public async Task Each_apps_line_is_priced_from_the_prices_file_and_the_total_adds_every_app()
    {
        await File.WriteAllTextAsync(Prices, "ACA_PRICE_VCPU_SECOND=0.00003\nACA_PRICE_GIB_SECOND=0.000004\n");

        var distributor = await RunAsync(
            "app-cost", "--app", "distributor", "--cpu", "0.5", "--memory", "1Gi",
            "--usage-nanocores", "250000000\n50000000", "--working-set-bytes", "157286400\n178257920");
        var receiver = await RunAsync(
            "app-cost", "--app", "receiver-express", "--cpu", "1", "--memory", "2Gi",
            "--usage-nanocores", "500000000", "--working-set-bytes", "209715200");
        var total = await RunAsync("cost-total", "--count", "10000");

        // 120 replica-seconds x (0.5 x 0.00003 + 1 x 0.000004); 60 x (1 x 0.00003 + 2 x 0.000004).
        Assert.Equal((ExitCodes.Done,
            "cost, distributor: 18.00 CPU-s used, peak 170 MiB; 2 replica-minutes of 0.5 vCPU and 1Gi allocated: " +
            "0.002280 USD\n"), distributor);
        Assert.Equal((ExitCodes.Done,
            "cost, receiver-express: 30.00 CPU-s used, peak 200 MiB; 1 replica-minutes of 1 vCPU and 2Gi " +
            "allocated: 0.002280 USD\n"), receiver);
        Assert.Equal((ExitCodes.Done,
            "burst cost at Container Apps consumption prices (ACA_PRICE_VCPU_SECOND=0.00003, " +
            "ACA_PRICE_GIB_SECOND=0.000004 USD): 0.004560 USD for 10000 orders; 48.00 CPU-s used by the apps\n"),
            total);
    }

    [Fact]
    public async Task The_history_keeps_the_bursts_total_cpu_worst_peak_and_cost_and_dashes_when_none_was_read()
    {
        await File.WriteAllTextAsync(Costs, "18.00\t170\t0.001800\n30.00\t200\t0.002280\n");
        var history = Path.Combine(_folder, "azure-bursts-dev.tsv");
        string[] append = ["burst-record", "append", "--history", history, "--model", "pubsub-bulk", "--start",
            "warm", "--replicas-at-instant", "distributor=1", "--replicas-at-end", "distributor=1", "--costs", Costs,
            "--tiered-compilation", "off"];

        Assert.Equal(ExitCodes.Done, await new Cli().RunAsync(append));
        File.Delete(Costs);
        Assert.Equal(ExitCodes.Done, await new Cli().RunAsync(append));

        var rows = await File.ReadAllLinesAsync(history);
        Assert.Equal(["48.00", "200", "0.004080"], rows[^2].Split('\t')[5..8]);
        Assert.Equal(["-", "-", "-"], rows[^1].Split('\t')[5..8]);
    }

    [Theory]
    [InlineData("--usage-nanocores", "250000000\nNone", "--usage-nanocores takes numbers", "'None'")]
    [InlineData("--working-set-bytes", "-5", "--working-set-bytes takes numbers", "'-5'")]
    [InlineData("--memory", "512Mi", "--memory takes a memory size in Gi", "'512Mi'")]
    [InlineData("--cpu", "half", "--cpu takes a number of vCPUs", "'half'")]
    public async Task A_metric_value_or_size_azure_did_not_state_as_a_number_is_refused_in_one_line(
        string option, string value, string what, string quoted)
    {
        await File.WriteAllTextAsync(Prices, "ACA_PRICE_VCPU_SECOND=0.000024\nACA_PRICE_GIB_SECOND=0.000003\n");
        var given = new Dictionary<string, string>
        {
            ["--cpu"] = "0.5",
            ["--memory"] = "1Gi",
            ["--usage-nanocores"] = "1",
            ["--working-set-bytes"] = "1",
        };
        given[option] = value;

        var (exit, output) = await RunAsync(
            ["app-cost", "--app", "distributor", .. given.SelectMany(pair => new[] { pair.Key, pair.Value })]);

        Assert.Equal(ExitCodes.BadInput, exit);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(what, line, StringComparison.Ordinal);
        Assert.Contains(quoted, line, StringComparison.Ordinal);
        Assert.False(File.Exists(Costs), "a refused app added a share to the burst's costs");
    }

    [Fact]
    public async Task Without_prices_in_the_environment_or_the_file_the_cost_is_refused_in_one_line_naming_both()
    {
        var (exit, output) = await RunAsync("cost-total", "--count", "10");

        Assert.Equal(ExitCodes.BadInput, exit);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("ACA_PRICE_VCPU_SECOND", line, StringComparison.Ordinal);
        Assert.Contains(Prices, line, StringComparison.Ordinal);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private async Task<(int Exit, string Output)> RunAsync(params string[] args)
    {
        var cli = new Cli();
        var exit = await cli.RunAsync(["burst-record", .. args, "--costs", Costs, "--prices", Prices]);
        return (exit, cli.Output);
    }
}
