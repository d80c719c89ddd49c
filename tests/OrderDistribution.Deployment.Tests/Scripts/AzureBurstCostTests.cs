using OrderDistribution.LoadTool.Costs;
using static OrderDistribution.Deployment.Tests.AzureBurstRun;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/azure-burst.sh after a burst: each app's CPU, memory and cost, whether its scaler acted, and what its
/// telemetry cost in Log Analytics.
/// </summary>
public sealed class AzureBurstCostTests
{
    [RequiresProgramFact("bash", "apt-get install bash")]
    public void After_a_burst_each_apps_cpu_seconds_peak_memory_and_cost_are_read_from_its_replica_metrics()
    {
        // Two replica-minutes of the distributor: 0.25 and 0.05 cores on average, 150 and 170 MiB at most.
        using var azure = Deployed(specific: a => a
            .Respond("--name distributor --query [id", "/subscriptions/s/rg/distributor\t0.5\t1Gi")
            .Respond("/subscriptions/s/rg/distributor --metric UsageNanoCores", "250000000\n50000000")
            .Respond("/subscriptions/s/rg/distributor --metric WorkingSetBytes", "157286400\n178257920")
            .Respond("/subscriptions/s/rg/distributor --metric Replicas", "1\n3")
            .Respond("--metric ActiveMessages", "0\n9500"));

        var (exitCode, output) = Burst(azure, "--start", "warm");

        Assert.True(exitCode == 0, output);
        // 0.3 cores x 60 s = 18 CPU-s; 120 replica-seconds x (0.5 vCPU x 0.000024 + 1 GiB x 0.000003) USD.
        Assert.Contains(
            "cost, distributor: 18.00 CPU-s used, peak 170 MiB; 2 replica-minutes of 0.5 vCPU and 1Gi allocated: " +
            "0.001800 USD", output, StringComparison.Ordinal);
        Assert.Contains("scaler, distributor: scaled to 3 replicas while q-order-ingress held up to 9500 messages",
            output, StringComparison.Ordinal);
        Assert.Contains(
            "burst cost at Container Apps consumption prices (ACA_PRICE_VCPU_SECOND=0.000024, " +
            "ACA_PRICE_GIB_SECOND=0.000003 USD): 0.001800 USD for 10 orders", output, StringComparison.Ordinal);
        var kept = LastResult(azure).Azure!;
        Assert.Equal((18.0, 170L, 0.0018), kept.Apps.Where(a => a.App == "distributor")
            .Select(a => (a.CpuSeconds, a.PeakMib, a.Cost)).Single());
        Assert.Equal("off", kept.TieredCompilation);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_price_set_in_the_environment_wins_over_the_prices_file_and_an_unpriceable_size_is_one_line()
    {
        using var azure = Deployed(specific: a => a
            .Respond("--name distributor --query [id", "/subscriptions/s/rg/distributor\t0.5\t1Gi")
            .Respond("--name receiver-express --query [id", "/subscriptions/s/rg/receiver-express\t0.5\t512Mi")
            .Respond("/subscriptions/s/rg/distributor --metric UsageNanoCores", "250000000\n50000000")
            .Respond("/subscriptions/s/rg/distributor --metric WorkingSetBytes", "157286400\n178257920"));

        var (exitCode, output) = BurstWith(azure, ["ACA_PRICE_VCPU_SECOND=0.00003"], "--start", "warm");

        Assert.True(exitCode == 0, output);
        // 120 replica-seconds x (0.5 vCPU x 0.00003 + 1 GiB x 0.000003, the file's) USD.
        Assert.Contains(
            "cost, distributor: 18.00 CPU-s used, peak 170 MiB; 2 replica-minutes of 0.5 vCPU and 1Gi allocated: " +
            "0.002160 USD", output, StringComparison.Ordinal);
        Assert.Contains(
            "cost, receiver-express: its size (0.5 vCPU, 512Mi) is not a number of vCPUs and a memory size in Gi",
            output, StringComparison.Ordinal);
        Assert.Contains(
            "burst cost at Container Apps consumption prices (ACA_PRICE_VCPU_SECOND=0.00003, " +
            "ACA_PRICE_GIB_SECOND=0.000003 USD): 0.002160 USD for 10 orders; 18.00 CPU-s used by the apps",
            output, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_burst_whose_app_never_scaled_while_its_queue_held_messages_says_why_in_one_line()
    {
        using var azure = Deployed(specific: a => a
            .Respond("--name receiver-express --query [id", "/subscriptions/s/rg/receiver-express\t0.5\t1Gi")
            .Respond("/subscriptions/s/rg/receiver-express --metric Replicas", "1\n1")
            .Respond("--metric ActiveMessages", "4800\n9700")
            .Respond("logs show --subscription " + FakeAzure.Subscription +
                " --resource-group rg-fake --name receiver-express --type system",
                "2026-11-20T10:00:41Z KEDAScalerFailed: failed to get queue length: unauthorized, identity lacks " +
                "Manage"));

        var (exitCode, output) = Burst(azure, "--start", "warm");

        Assert.True(exitCode == 0, output);
        Assert.Contains(
            "scaler, receiver-express: stayed at 1 replica while q-order-express held up to 9700 messages: " +
            "2026-11-20T10:00:41Z KEDAScalerFailed: failed to get queue length: unauthorized, identity lacks Manage",
            output, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void After_a_burst_its_telemetry_in_log_analytics_is_counted_over_the_window_and_priced_per_gb()
    {
        using var azure = Deployed();

        var (exitCode, output) = BurstWith(azure, ["LOG_ANALYTICS_PRICE_GB=2"], "--start", "warm");

        Assert.True(exitCode == 0, output);
        Assert.Contains(
            "telemetry, Log Analytics: 30 items, 0.02 MB billed (AppRequests 20 items, 0.02 MB; AppEvents 10 items, " +
            "0.01 MB); 3.00 items per order; 0.000044 USD at LOG_ANALYTICS_PRICE_GB=2 USD", output,
            StringComparison.Ordinal);
        Assert.Equal(new TelemetryCost(0.02, 0.000044), LastResult(azure).Azure!.Telemetry);
        // The workspace the deployment made, the query in scripts/kql, over the window the other queries get.
        var query = Assert.Single(azure.Calls,
            call => call.StartsWith("monitor log-analytics query", StringComparison.Ordinal));
        Assert.Contains("--workspace ws-fake", query, StringComparison.Ordinal);
        Assert.Contains("summarize Items = count(), BilledBytes = sum(_BilledSize) by Table", query,
            StringComparison.Ordinal);
        var window = WindowRegex().Match(output);
        Assert.True(window.Success, output);
        Assert.Contains($"--timespan {window.Groups["start"].Value}/{window.Groups["end"].Value}", query,
            StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Without_waiting_for_telemetry_its_volume_is_not_queried_and_the_report_says_so()
    {
        using var azure = Deployed();

        var (exitCode, output) = Burst(azure, "--telemetry-wait", "0");

        Assert.True(exitCode == 0, output);
        Assert.Contains("telemetry, Log Analytics: not queried (--telemetry-wait 0)", output, StringComparison.Ordinal);
        Assert.DoesNotContain(azure.Calls, call => call.StartsWith("monitor log-analytics", StringComparison.Ordinal));
        Assert.Null(LastResult(azure).Azure!.Telemetry);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void On_a_fresh_az_the_burst_installs_the_extensions_its_queries_need_before_it_queries()
    {
        using var azure = Deployed(extensionsInstalled: false);

        var (exitCode, output) = Burst(azure, "--start", "warm");

        Assert.True(exitCode == 0, output);
        foreach (var (extension, query) in new[]
                 {
                     ("application-insights", "monitor app-insights query"),
                     ("log-analytics", "monitor log-analytics query"),
                 })
        {
            var installed = azure.Calls.IndexOf($"extension add --name {extension} --only-show-errors");
            Assert.True(installed >= 0, $"{extension} was not installed: {output}");
            Assert.True(installed < azure.Calls.FindIndex(c => c.StartsWith(query, StringComparison.Ordinal)));
        }
    }
}
