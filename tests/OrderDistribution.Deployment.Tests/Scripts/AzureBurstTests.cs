using System.Globalization;
using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/azure-burst.sh up to the load tool and after it, with az answering what Azure would and stand-ins for
/// dapr (which records the load tool's arguments and writes the schedule record the load tool would) and dotnet.
/// </summary>
public partial class AzureBurstTests
{
    private const string Before = "2026-11-20T09:00:00+00:00";
    private const string After = "2026-11-20T11:00:00+00:00";
    private const string LastBurst = "2026-11-20T10:00:00Z";

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_burst_is_refused_when_an_app_runs_another_model_than_the_azd_environment_names() =>
        // The fake matches calls by text without quotes.
        AssertRefused(
            a => a.Respond("--name receiver-standard --revision receiver-standard--r1", "bindings"),
            "refusing the burst: the azd environment says pubsub-bulk, but Azure runs: receiver-standard=bindings");

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_burst_is_refused_in_one_line_naming_the_app_while_its_latest_revision_is_not_ready() =>
        // The latest template may not run yet: the settings would be read from a revision that takes no delivery.
        AssertRefused(
            a => a.Respond("--name receiver-express -o tsv",
                WaitReadyTests.AppState("receiver-express--r2", "receiver-express--r1")),
            "refusing the burst: not ready for a burst: receiver-express: its latest revision receiver-express--r2 " +
            "is not ready yet (latest ready: receiver-express--r1)");

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_burst_is_refused_in_one_line_naming_the_app_while_a_replica_does_not_answer_readiness() =>
        AssertRefused(
            a => a.Respond("--revision distributor--r1 --query [].join", "distributor--r1-x7 Running 1"),
            "refusing the burst: not ready for a burst: distributor: replica distributor--r1-x7 is Running with 1 " +
            "container(s) not ready (readiness: /health)");

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_burst_is_refused_when_the_chosen_models_component_is_not_deployed() =>
        AssertRefused(
            a => a.Fail("dapr-component show", "(ResourceNotFound) order-pubsub was not found"),
            "component order-pubsub: ERROR: (ResourceNotFound)");

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void The_first_burst_to_an_environment_is_cold_and_the_next_one_warm_while_the_processes_run()
    {
        using var azure = Deployed(specific: a => a.Respond("createdTime", Before));

        var (first, firstOutput) = Burst(azure);
        Assert.True(first == 0, firstOutput);
        Assert.Contains("--start cold", File.ReadAllText(LoadToolCall(azure)), StringComparison.Ordinal);
        Assert.Contains("--model pubsub-bulk", File.ReadAllText(LoadToolCall(azure)), StringComparison.Ordinal);

        var (second, secondOutput) = Burst(azure);
        Assert.True(second == 0, secondOutput);
        Assert.Contains("--start warm", File.ReadAllText(LoadToolCall(azure)), StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_burst_after_a_new_revision_or_a_scale_from_zero_of_one_app_is_cold()
    {
        using var azure = Deployed(specific: a => a
            .Respond("--name receiver-express --query min([].properties.createdTime)", After)
            .Respond("createdTime", Before));
        File.WriteAllText(Path.Combine(azure.Folder, "azure-last-burst-fake.txt"), LastBurst + "\n");

        var (exitCode, output) = Burst(azure);

        Assert.True(exitCode == 0, output);
        Assert.Contains("--start cold", File.ReadAllText(LoadToolCall(azure)), StringComparison.Ordinal);
        Assert.Contains(
            $"cold: receiver-express's oldest replica started {After}, after the last burst ended {LastBurst}", output,
            StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_start_given_on_the_command_line_is_kept()
    {
        using var azure = Deployed();
        var (exitCode, output) = Burst(azure, "--start", "warm");

        Assert.True(exitCode == 0, output);
        Assert.Equal(1, Regex.Count(File.ReadAllText(LoadToolCall(azure)), "--start"));
        Assert.DoesNotContain(azure.Calls, call => call.Contains("createdTime", StringComparison.Ordinal));
        Assert.Contains("start: as given;", output, StringComparison.Ordinal);
    }

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
    public void The_report_says_how_many_replicas_each_app_ran_at_the_instant_and_at_the_end()
    {
        using var azure = Deployed(replicas: 3);

        var (exitCode, output) = Burst(azure);

        Assert.True(exitCode == 0, output);
        Assert.Contains(
            "start: cold; replicas at the scheduled instant: distributor=3 receiver-express=3 receiver-standard=3; " +
            "at the end: distributor=3 receiver-express=3 receiver-standard=3", output, StringComparison.Ordinal);
        // Read at the instant and at the end: twice per app.
        Assert.Equal(6,
            azure.Calls.Count(call => call.StartsWith("containerapp replica list", StringComparison.Ordinal)
            && call.Contains("length(@)", StringComparison.Ordinal)));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Bursts_are_compared_only_with_bursts_of_the_same_model_that_started_with_the_same_replicas()
    {
        using var scaledOut = Deployed(replicas: 4);
        Assert.Equal(0, Burst(scaledOut).ExitCode);
        using var azure = Deployed(replicas: 1);
        var history = Path.Combine(azure.Folder, "azure-bursts-fake.tsv");
        File.Copy(Path.Combine(scaledOut.Folder, "azure-bursts-fake.tsv"), history);

        var (first, firstOutput) = Burst(azure, "--start", "warm");
        var (second, secondOutput) = Burst(azure, "--start", "warm");

        Assert.True(first == 0 && second == 0, firstOutput + secondOutput);
        // The burst that started with 4 replicas per app is no comparison for one that started with 1.
        Assert.Contains(
            "comparable earlier bursts (model pubsub-bulk, start as given, same replicas at the instant): 0,",
            firstOutput, StringComparison.Ordinal);
        Assert.Contains(
            "comparable earlier bursts (model pubsub-bulk, start as given, same replicas at the instant): 1,",
            secondOutput, StringComparison.Ordinal);
        Assert.Equal(4, File.ReadAllLines(history).Length);
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
        Assert.Contains($"--results {Path.Combine(azure.Folder, "LOG.md")}", File.ReadAllText(LoadToolCall(azure)),
            StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void A_burst_refused_as_another_holds_the_store_ends_at_once_draining_and_recording_nothing()
    {
        using var azure = Deployed();
        // The load tool's refusal: one line and exit 5 (docs/load-tool.md).
        azure.WithProgram("dapr",
            "#!/bin/sh\necho 'Refused: another burst holds storage at https://st.blob.core.windows.net: order-load " +
            "run (burst 512345) from host other, started 2026-11-20 10:00:00 UTC.' >&2\nexit 5");

        var (exitCode, output) = Burst(azure);

        Assert.True(exitCode == 5, output);
        Assert.Contains("Refused: another burst holds storage", output, StringComparison.Ordinal);
        // The other burst's: not drained, counted or marked warm as this one's.
        Assert.DoesNotContain("query-kql.sh", output, StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(azure.Folder, "azure-last-burst-fake.txt")),
            "a refused burst was recorded as the last one");
        Assert.DoesNotContain(azure.Calls, c => c.Contains("scheduledMessageCount", StringComparison.Ordinal));
        Assert.DoesNotContain("dead-lettered in this burst", output, StringComparison.Ordinal);
    }

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
        var row = File.ReadAllLines(Path.Combine(azure.Folder, "azure-bursts-fake.tsv"))[^1].Split('\t');
        Assert.Equal(["18.00", "170", "0.001800"], row[^3..]);
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

    /// <summary>An azd environment on pubsub-bulk whose apps and component run just that, with empty queues and
    /// <paramref name="replicas"/> replicas per app, each ready for a burst; the <paramref name="specific"/> answers
    /// come first (the fake answers with the first that matches). The load tool's stand-in records 9 of 10 orders
    /// stored in 41.2 s, and Application Insights holds the same.</summary>
    private static FakeAzure Deployed(double skewSeconds = 0.4, Action<FakeAzure>? specific = null, int replicas = 1)
    {
        var azure = new FakeAzure()
            .SetAzdValue("AZURE_CONTAINER_APPS_ENVIRONMENT_NAME", "cae-fake")
            .SetAzdValue("MESSAGING_MODEL", "pubsub-bulk");
        // Answers about readiness (scripts/wait-ready.sh) first: a specific one given for them wins.
        specific?.Invoke(azure);
        WaitReadyTests.Ready(azure);
        azure.Respond("length(@)", replicas.ToString(CultureInfo.InvariantCulture));
        foreach (var app in Contract.AppIds)
        {
            azure.Respond($"--name {app} --query properties.latestRevisionName", $"{app}--r1");
        }

        azure.Respond("app-insights query", "41.5 9 2026-11-20T10:01:11.500Z")
            .Respond("Messaging__Model", "pubsub-bulk")
            .Respond("dapr-component show", "distributor receiver-express receiver-standard")
            .Respond("activeMessageCount", "0\t0");
        var record = System.Text.Json.JsonSerializer.Serialize(new
        {
            ScheduledAt = new DateTimeOffset(2026, 11, 20, 10, 0, 30, TimeSpan.Zero),
            Model = "pubsub-bulk",
            Count = 10,
            OrdersFile = "orders.json",
            ClockSkewSeconds = skewSeconds,
        });
        azure.WithProgram("dotnet", "#!/bin/sh\nexit 0")
            .WithProgram("dapr", $$"""
                #!/bin/sh
                printf '%s\n' "$*" > '{{LoadToolCall(azure)}}'
                while [ $# -gt 0 ]; do
                  if [ "$1" = --state ]; then printf '%s' '{{record}}' > "$2"; fi
                  if [ "$1" = --results ]; then
                    printf '| 2026-11-20T10:00:30 | pubsub-bulk | 10 | 41.2 | 243 | 1 | cold |\n' >> "$2"
                  fi
                  shift
                done
                """);
        return azure;
    }

    private static void AssertRefused(Action<FakeAzure> deployed, string reason)
    {
        using var azure = Deployed(specific: deployed);

        var (exitCode, output) = Burst(azure);

        Assert.Equal(1, exitCode);
        Assert.Contains(reason, output, StringComparison.Ordinal);
        Assert.False(File.Exists(LoadToolCall(azure)), "the load tool ran");
    }

    private static string LoadToolCall(FakeAzure azure) => Path.Combine(azure.Folder, "load-tool-call.txt");

    private static (int ExitCode, string Output) Burst(FakeAzure azure, params string[] arguments) =>
        azure.Run("env",
            ["AZURE_BURST_RESULTS=" + azure.Folder, "bash", "scripts/azure-burst.sh", "--count", "10",
            "--drain-timeout", "0", .. arguments]);

    [GeneratedRegex(@"query-kql\.sh --start (?<start>\S+) --end (?<end>\S+) --scheduled-at (?<scheduled>\S+) ")]
    private static partial Regex WindowRegex();
}
