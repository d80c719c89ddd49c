namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// <c>burst-record telemetry-cost</c> as scripts/azure-burst.sh calls it: the telemetry query's rows as az prints
/// them, priced per GB ingested from the environment or the prices file, and a bad input refused in one line.
/// </summary>
public sealed class TelemetryCostCommandTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("order-load-telemetry-cost").FullName;

    private string Prices => Path.Combine(_folder, "prices.env");

    [Fact]
    public async Task The_bursts_telemetry_is_counted_per_table_and_per_order_and_priced_per_gb_billed()
    {
        await File.WriteAllTextAsync(Prices, "LOG_ANALYTICS_PRICE_GB=2.5\nACA_PRICE_CURRENCY=USD\n");

        var (exit, output) = await RunAsync("--volume",
            "AppEvents\t10000\t6000000\nAppRequests\t20000\t16000000\nContainerAppConsoleLogs_CL\t12\t9000",
            "--count", "10000");

        // 22,009,000 bytes = 0.022009 GB at 2.5 USD a GB.
        Assert.Equal((ExitCodes.Done,
            "telemetry, Log Analytics: 30012 items, 22.01 MB billed (AppRequests 20000 items, 16.00 MB; AppEvents " +
            "10000 items, 6.00 MB; ContainerAppConsoleLogs_CL 12 items, 0.01 MB); 3.00 items per order; 0.055023 " +
            "USD at LOG_ANALYTICS_PRICE_GB=2.5 USD\n"), (exit, output));
    }

    [Fact]
    public async Task A_price_in_the_environment_wins_and_a_window_with_nothing_ingested_costs_nothing()
    {
        await File.WriteAllTextAsync(Prices, "LOG_ANALYTICS_PRICE_GB=2.5\n");
        Environment.SetEnvironmentVariable("LOG_ANALYTICS_PRICE_GB", "3");
        try
        {
            var (exit, output) = await RunAsync("--volume", "", "--count", "10");

            Assert.Equal((ExitCodes.Done,
                "telemetry, Log Analytics: 0 items, 0.00 MB billed (nothing ingested in the window); 0.00 items per " +
                "order; 0.000000 USD at LOG_ANALYTICS_PRICE_GB=3 USD\n"), (exit, output));
        }
        finally
        {
            Environment.SetEnvironmentVariable("LOG_ANALYTICS_PRICE_GB", null);
        }
    }

    [Theory]
    [InlineData("AppRequests\t20000", "--volume takes the query's rows")]
    [InlineData("AppRequests\tmany\t16000000", "--volume takes the query's rows")]
    [InlineData("AppRequests\t20000\t-1", "--volume takes the query's rows")]
    public async Task Rows_that_are_not_the_querys_are_refused_in_one_line(string volume, string why)
    {
        await File.WriteAllTextAsync(Prices, "LOG_ANALYTICS_PRICE_GB=2.5\n");

        var (exit, output) = await RunAsync("--volume", volume, "--count", "10");

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains(why, Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries)),
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task Without_a_price_the_cost_is_refused_in_one_line_naming_the_setting_and_the_file()
    {
        await File.WriteAllTextAsync(Prices, "ACA_PRICE_VCPU_SECOND=0.000024\n");

        var (exit, output) = await RunAsync("--volume", "AppRequests\t1\t1000", "--count", "1");

        Assert.Equal(ExitCodes.BadInput, exit);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("LOG_ANALYTICS_PRICE_GB", line, StringComparison.Ordinal);
        Assert.Contains(Prices, line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_history_keeps_the_telemetrys_mb_and_cost_and_marks_them_not_read_without_the_file()
    {
        await File.WriteAllTextAsync(Prices, "LOG_ANALYTICS_PRICE_GB=2.5\n");
        var telemetry = Path.Combine(_folder, "telemetry.tsv");
        var history = Path.Combine(_folder, "azure-bursts-dev.tsv");
        string[] append = ["burst-record", "append", "--history", history, "--model", "pubsub-single", "--start",
            "warm", "--replicas-at-instant", "distributor=1", "--replicas-at-end", "distributor=1", "--costs",
            Path.Combine(_folder, "costs.tsv"), "--tiered-compilation", "off", "--telemetry", telemetry];

        var (exit, _) = await RunAsync("--volume", "AppRequests\t20000\t16000000\nAppEvents\t20\t14000", "--count",
            "10000", "--telemetry", telemetry);
        Assert.Equal(ExitCodes.Done, exit);
        Assert.Equal(ExitCodes.Done, await new Cli().RunAsync(append));
        File.Delete(telemetry);
        Assert.Equal(ExitCodes.Done, await new Cli().RunAsync(append));

        // 16,014,000 bytes: 16.01 MB, at 2.5 USD a GB 0.040035 USD.
        var rows = await File.ReadAllLinesAsync(history);
        Assert.Equal(["16.01", "0.040035"], rows[^2].Split('\t')[^2..]);
        Assert.Equal(["-", "-"], rows[^1].Split('\t')[^2..]);
    }

    [Fact]
    public async Task The_repositorys_prices_file_prices_log_analytics()
    {
        var file = OrderDistribution.LoadTool.Costs.ContainerAppsPrices.FindFile(AppContext.BaseDirectory);

        Assert.NotNull(OrderDistribution.LoadTool.Costs.LogAnalyticsPrice.Load(_ => null, file));
        Assert.Equal(ExitCodes.Done, (await RunWith(file!, "--volume", "AppRequests\t1\t1000", "--count", "1")).Exit);
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private Task<(int Exit, string Output)> RunAsync(params string[] args) => RunWith(Prices, args);

    private static async Task<(int Exit, string Output)> RunWith(string prices, params string[] args)
    {
        var cli = new Cli();
        var exit = await cli.RunAsync(["burst-record", "telemetry-cost", .. args, "--prices", prices]);
        return (exit, cli.Output);
    }
}
