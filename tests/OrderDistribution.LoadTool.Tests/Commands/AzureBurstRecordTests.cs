using OrderDistribution.LoadTool.AzureBursts;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Reporting;

namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// <c>azure-burst record</c> as scripts/azure-burst.sh calls it: prices what the script read from Azure, keeps it in
/// the burst's result and says how many earlier bursts compare; what it cannot read is a line alone.
/// </summary>
public sealed class AzureBurstRecordTests : AzureBurstFiles
{
    [Fact]
    public async Task Record_prices_each_app_and_the_telemetry_and_keeps_them_in_the_bursts_result()
    {
        await File.WriteAllTextAsync(Prices,
            "ACA_PRICE_VCPU_SECOND=0.00003\nACA_PRICE_GIB_SECOND=0.000004\nLOG_ANALYTICS_PRICE_GB=2.5\n");
        await WriteRecordAsync("0.4");
        await WriteResultsAsync(Result(41.2, 1));

        var (exit, output) = await RecordAsync("distributor=1 receiver-express=1", "off",
            "--app", "distributor", "--cpu", "0.5", "--memory", "1Gi",
            "--usage-nanocores", "250000000\n50000000", "--working-set-bytes", "157286400\n178257920",
            "--app", "receiver-express", "--cpu", "1", "--memory", "2Gi",
            "--usage-nanocores", "500000000", "--working-set-bytes", "209715200",
            "--telemetry-volume",
            "AppEvents\t10000\t6000000\nAppRequests\t20000\t16000000\nContainerAppConsoleLogs_CL\t12\t9000");

        Assert.True(exit == ExitCodes.Done, output);
        // 120 replica-seconds x (0.5 x 0.00003 + 1 x 0.000004); 60 x (1 x 0.00003 + 2 x 0.000004); 22,009,000 bytes
        // = 0.022009 GB at 2.5 USD a GB.
        Assert.Equal(
            "cost, distributor: 18.00 CPU-s used, peak 170 MiB; 2 replica-minutes of 0.5 vCPU and 1Gi allocated: " +
            "0.002280 USD\n" +
            "cost, receiver-express: 30.00 CPU-s used, peak 200 MiB; 1 replica-minutes of 1 vCPU and 2Gi " +
            "allocated: 0.002280 USD\n" +
            "burst cost at Container Apps consumption prices (ACA_PRICE_VCPU_SECOND=0.00003, " +
            "ACA_PRICE_GIB_SECOND=0.000004 USD): 0.004560 USD for 10 orders; 48.00 CPU-s used by the apps\n" +
            "telemetry, Log Analytics: 30012 items, 22.01 MB billed (AppRequests 20000 items, 16.00 MB; AppEvents " +
            "10000 items, 6.00 MB; ContainerAppConsoleLogs_CL 12 items, 0.01 MB); 3001.20 items per order; " +
            "0.055023 USD at LOG_ANALYTICS_PRICE_GB=2.5 USD\n" +
            "comparable earlier bursts (model pubsub-bulk, start cold, same replicas at the instant, tiered " +
            $"compilation off): 0, in {Results}\n", output);
        var azure = Assert.Single(await ResultsFile.ReadAsync(Results, default)).Azure!;
        Assert.Equal(("distributor=1 receiver-express=1", "distributor=3", "off"),
            (azure.ReplicasAtInstant, azure.ReplicasAtEnd, azure.TieredCompilation));
        Assert.Equal([(18.0, 170L, 0.00228), (30.0, 200L, 0.00228)],
            azure.Apps.Select(a => (a.CpuSeconds, a.PeakMib, a.Cost)));
        Assert.Equal(new TelemetryCost(22.01, 0.055023), azure.Telemetry);
        Assert.Contains("| 41.2 |", await File.ReadAllTextAsync(Path.Combine(Folder, "LOG.md")),
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task Only_earlier_bursts_of_the_same_model_start_replicas_at_the_instant_and_compilation_compare()
    {
        await File.WriteAllTextAsync(Prices, "ACA_PRICE_VCPU_SECOND=0.00003\nACA_PRICE_GIB_SECOND=0.000004\n");
        await WriteRecordAsync("0");
        AzureFacts Facts(string replicas, string tiered) => new(replicas, replicas, tiered, [], null);
        await WriteResultsAsync(
            Result(40, 0, Instant.AddHours(-5)) with { Azure = Facts("distributor=1", "off") },
            Result(40, 0, Instant.AddHours(-4)) with { Azure = Facts("distributor=4", "off") },
            Result(40, 0, Instant.AddHours(-3)) with { Azure = Facts("distributor=1", "on") },
            Result(40, 0, Instant.AddHours(-2)) with { Label = "bindings", Azure = Facts("distributor=1", "off") },
            Result(40, 0, Instant.AddHours(-1)) with { Start = BurstStart.Warm, Azure = Facts("distributor=1", "off") },
            // Not yet recorded by the script: no replicas known.
            Result(40, 0, Instant.AddMinutes(-30)),
            Result(41.2, 1),
            // Later than this burst: not earlier.
            Result(40, 0, Instant.AddHours(1)) with { Azure = Facts("distributor=1", "off") });

        var (exit, output) = await RecordAsync("distributor=1", "off");

        Assert.True(exit == ExitCodes.Done, output);
        Assert.Contains("comparable earlier bursts (model pubsub-bulk, start cold, same replicas at the instant, " +
                        $"tiered compilation off): 1, in {Results}\n", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("")]
    [InlineData("distributor=1 receiver-express=? receiver-standard=1")]
    public async Task Replicas_not_read_at_the_instant_compare_with_no_burst(string replicas)
    {
        await WriteRecordAsync("0");
        await WriteResultsAsync(Result(40, 0, Instant.AddHours(-1)) with
        {
            Azure = new AzureFacts(replicas, replicas, "off", [], null),
        }, Result(41.2, 1));

        var (_, output) = await RecordAsync(replicas, "off");

        Assert.Contains("comparable earlier bursts: unknown (the replicas at the instant were not read); compare " +
                        "this burst with none\n", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--memory", "512Mi", "cost, receiver-express: its size (1 vCPU, 512Mi) is not a number of vCPUs")]
    [InlineData("--cpu", "half", "cost, receiver-express: its size (half vCPU, 2Gi) is not a number of vCPUs")]
    public async Task An_app_whose_size_azure_did_not_state_as_vcpus_and_gi_is_a_line_alone_and_the_rest_priced(
        string option, string value, string line)
    {
        await File.WriteAllTextAsync(Prices, "ACA_PRICE_VCPU_SECOND=0.00003\nACA_PRICE_GIB_SECOND=0.000004\n");
        await WriteRecordAsync("0");
        await WriteResultsAsync(Result(41.2, 1));
        string[] receiver = ["--app", "receiver-express", "--cpu", "1", "--memory", "2Gi", "--usage-nanocores", "0",
            "--working-set-bytes", "0"];
        receiver[Array.IndexOf(receiver, option) + 1] = value;

        var (exit, output) = await RecordAsync("distributor=1", "off", [
            "--app", "distributor", "--cpu", "0.5", "--memory", "1Gi", "--usage-nanocores", "250000000",
            "--working-set-bytes", "0", .. receiver,
        ]);

        Assert.True(exit == ExitCodes.Done, output);
        var lines = output.Split('\n');
        Assert.StartsWith("cost, distributor: 15.00 CPU-s used", lines[0], StringComparison.Ordinal);
        Assert.StartsWith(line, lines[1], StringComparison.Ordinal);
        Assert.Contains("0.001140 USD for 10 orders; 15.00 CPU-s used by the apps", lines[2], StringComparison.Ordinal);
        Assert.Equal(["distributor"],
            (await ResultsFile.ReadAsync(Results, default))[0].Azure!.Apps.Select(a => a.App));
    }

    [Fact]
    public async Task Without_prices_in_the_environment_or_the_file_each_cost_is_one_line_naming_both()
    {
        await File.WriteAllTextAsync(Prices, "# no prices\n");
        await WriteRecordAsync("0");
        await WriteResultsAsync(Result(41.2, 1));

        var (exit, output) = await RecordAsync("distributor=1", "off", "--app", "distributor", "--cpu", "0.5",
            "--memory", "1Gi", "--usage-nanocores", "1", "--working-set-bytes", "1", "--telemetry-volume",
            "AppRequests\t1\t1000");

        Assert.True(exit == ExitCodes.Done, output);
        Assert.Contains("cost: no Container Apps prices: set ACA_PRICE_VCPU_SECOND and ACA_PRICE_GIB_SECOND in the " +
                        $"environment or in {Prices}\n", output, StringComparison.Ordinal);
        Assert.Contains("telemetry, Log Analytics: no Log Analytics price: set LOG_ANALYTICS_PRICE_GB in the " +
                        $"environment or in {Prices}\n", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("AppRequests\t20000")]
    [InlineData("AppRequests\tmany\t16000000")]
    [InlineData("AppRequests\t20000\t-1")]
    public async Task Telemetry_rows_that_are_not_the_querys_are_one_line_and_nothing_is_kept_of_them(string rows)
    {
        await File.WriteAllTextAsync(Prices, "LOG_ANALYTICS_PRICE_GB=2.5\n");
        await WriteRecordAsync("0");
        await WriteResultsAsync(Result(41.2, 1));

        var (_, output) = await RecordAsync("distributor=1", "off", "--telemetry-volume", rows);

        Assert.Contains("telemetry, Log Analytics: the query's rows are not a table's name, its items and its " +
                        "billed bytes", output, StringComparison.Ordinal);
        Assert.Null((await ResultsFile.ReadAsync(Results, default))[0].Azure!.Telemetry);
    }

    [Fact]
    public async Task A_burst_with_no_result_keeps_nothing_says_so_and_exits_1()
    {
        await WriteRecordAsync("0");
        await WriteResultsAsync(Result(40, 0, Instant.AddHours(-1)));
        var before = await File.ReadAllTextAsync(Results);

        var (exit, output) = await RecordAsync("distributor=1", "off");

        Assert.Equal(ExitCodes.Incomplete, exit);
        Assert.Contains($"history: no result of this burst in {Results}", output, StringComparison.Ordinal);
        Assert.Equal(before, await File.ReadAllTextAsync(Results));
    }

    [Fact]
    public async Task Metric_values_az_printed_that_are_no_numbers_are_skipped_in_one_line_and_the_rest_is_kept()
    {
        await File.WriteAllTextAsync(Prices, "ACA_PRICE_VCPU_SECOND=0.00003\nACA_PRICE_GIB_SECOND=0.000004\n");
        await WriteRecordAsync("0");
        await WriteResultsAsync(Result(41.2, 1));

        var (exit, output) = await RecordAsync("distributor=1", "off", "--app", "distributor", "--cpu", "0.5",
            "--memory", "1Gi", "--usage-nanocores", "250000000\nNone\n50000000", "--working-set-bytes",
            "157286400\n-5\n178257920");

        Assert.True(exit == ExitCodes.Done, output);
        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        // The two readable minutes of usage and working set, as if az had printed only them.
        Assert.StartsWith("cost, distributor: 18.00 CPU-s used, peak 170 MiB; 2 replica-minutes", lines[0],
            StringComparison.Ordinal);
        Assert.Equal("cost, distributor: skipped what az printed that is no metric value (a number, at least 0): " +
                     "--usage-nanocores 'None', --working-set-bytes '-5'", lines[1]);
        Assert.DoesNotContain("   at ", output, StringComparison.Ordinal);
        var kept = Assert.Single((await ResultsFile.ReadAsync(Results, default))[0].Azure!.Apps);
        Assert.Equal((18.0, 170L), (kept.CpuSeconds, kept.PeakMib));
    }

    [Fact]
    public async Task An_apps_options_given_a_different_number_of_times_are_refused_in_one_line()
    {
        var (exit, output) = await RecordAsync("distributor=1", "off", "--app", "distributor", "--cpu", "0.5");

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.StartsWith("--app, --cpu, --memory, --usage-nanocores and --working-set-bytes come once each per app",
            Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
    }

    [Fact]
    public void The_repositorys_prices_file_prices_container_apps_and_log_analytics()
    {
        var file = ContainerAppsPrices.FindFile(AppContext.BaseDirectory);

        Assert.NotNull(ContainerAppsPrices.Load(_ => null, file));
        Assert.NotNull(LogAnalyticsPrice.Load(_ => null, file));
    }
}
