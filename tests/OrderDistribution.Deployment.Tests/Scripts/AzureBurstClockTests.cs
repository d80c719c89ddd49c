using System.Globalization;
using static OrderDistribution.Deployment.Tests.AzureBurstRun;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/azure-burst.sh measuring in storage's time: the query window, and the load tool's end of the cycle beside
/// the query's.
/// </summary>
public sealed class AzureBurstClockTests
{
    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_query_window_is_in_storages_time_widened_for_the_containers_clocks()
    {
        using var azure = Deployed(skewSeconds: 125.4);
        var before = DateTimeOffset.UtcNow;
        var (exitCode, output) = Burst(azure);
        var after = DateTimeOffset.UtcNow;
        Assert.True(exitCode == 0, output);

        var line = WindowRegex().Match(output);
        Assert.True(line.Success, output);
        var start = DateTimeOffset.Parse(line.Groups["start"].Value, CultureInfo.InvariantCulture);
        var end = DateTimeOffset.Parse(line.Groups["end"].Value, CultureInfo.InvariantCulture);
        // This machine's instants moved by the whole seconds of the skew, and a minute on each side.
        Assert.InRange(start, before.AddSeconds(125 - 60 - 1), after.AddSeconds(125 - 60));
        Assert.InRange(end, before.AddSeconds(125 + 60 - 1), after.AddSeconds(125 + 60 + 1));
        Assert.Equal("2026-11-20T10:00:30Z", line.Groups["scheduled"].Value);
        // The next burst compares replicas with this one's end, in the same time.
        var recorded = DateTimeOffset.Parse(File.ReadAllText(Path.Combine(azure.Folder, "azure-last-burst-fake.txt")),
            CultureInfo.InvariantCulture);
        Assert.Equal(end.AddSeconds(-60), recorded);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void After_a_burst_the_load_tools_end_and_the_querys_end_are_printed_side_by_side()
    {
        using var azure = Deployed();

        var (exitCode, output) = Burst(azure);

        Assert.True(exitCode == 0, output);
        Assert.Contains(
            "cycle end, load tool (last blob's storedat):          41.2 s after the instant, 9 orders stored", output,
            StringComparison.Ordinal);
        Assert.Contains(
            "cycle end, cycle-time.kql (last OrdersStored event): 41.5 s after the instant, 9 orders stored (last at " +
            "2026-11-20T10:01:11.500Z)", output, StringComparison.Ordinal);
        // The query is cycle-time.kql with the burst's instant, over the burst's window.
        var query = Assert.Single(azure.Calls,
            call => call.StartsWith("monitor app-insights query", StringComparison.Ordinal));
        Assert.Contains("let scheduledAt = datetime(2026-11-20T10:00:30Z);", query, StringComparison.Ordinal);
        Assert.Contains("customEvents", query, StringComparison.Ordinal);
        // One results file per environment, apart from the local runs'.
        Assert.Contains($"--results {Results(azure)}",
            File.ReadAllText(LoadToolCall(azure)), StringComparison.Ordinal);
    }
}
