using static OrderDistribution.Deployment.Tests.AzureBurstRun;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/azure-burst.sh refusing a burst: before the load tool runs, when what Azure runs is not what the azd
/// environment names or not ready; after it, when another burst holds the store.
/// </summary>
public sealed class AzureBurstTests
{
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

    private static void AssertRefused(Action<FakeAzure> deployed, string reason)
    {
        using var azure = Deployed(specific: deployed);

        var (exitCode, output) = Burst(azure);

        Assert.Equal(1, exitCode);
        Assert.Contains(reason, output, StringComparison.Ordinal);
        Assert.False(File.Exists(LoadToolCall(azure)), "the load tool ran");
    }
}
