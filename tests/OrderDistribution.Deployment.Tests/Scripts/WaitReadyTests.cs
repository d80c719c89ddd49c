namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/wait-ready.sh (azd's postdeploy hook, and the burst script's refusal) with az answering what Container Apps
/// would: it waits, bounded and saying for what, until every app's latest revision runs its own image with probes,
/// is running and healthy, every replica is ready and no sidecar is refused by Service Bus; then one line.
/// </summary>
public class WaitReadyTests
{
    /// <summary>
    /// What <c>az containerapp show</c> answers for an app: latest and latest ready revision, image, probes.
    /// </summary>
    internal static string AppState(string latest, string ready, string image = "crfake.azurecr.io/app:azd-deploy-1",
        int probes = 2) =>
        $"{latest}\t{ready}\t{image}\t{probes}";

    /// <summary>
    /// Answers for a trio that can take a burst: each app's revision r1 runs its image and probes, one ready replica.
    /// </summary>
    internal static FakeAzure Ready(FakeAzure azure)
    {
        foreach (var app in Contract.AppIds)
        {
            azure.Respond($"--revision {app}--r1 --query [].join", $"{app}--r1-abc Running 0")
                .Respond($"--revision {app}--r1 --query [properties.runningState", "Running\tHealthy");
        }

        azure.Respond("logs show", "");
        foreach (var app in Contract.AppIds)
        {
            azure.Respond($"--name {app} -o tsv", AppState($"{app}--r1", $"{app}--r1"));
        }

        return azure;
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void A_trio_whose_revisions_and_replicas_are_ready_is_ready_for_a_burst_in_one_line()
    {
        using var azure = Ready(new FakeAzure());

        var (exitCode, output) = WaitReady(azure, "--timeout", "0");

        Assert.True(exitCode == 0, output);
        Assert.Equal(
            "ready for a burst: distributor, receiver-express, receiver-standard (latest revisions running, healthy, " +
            "every replica ready, no Service Bus refusal)", output.Trim());
    }

    [RequiresProgramTheory("sh", "apt-get install dash")]
    [InlineData("--name receiver-standard -o tsv",
        "receiver-standard--r1\treceiver-standard--r1\tmcr.microsoft.com/dotnet/samples:aspnetapp\t0",
        "receiver-standard: it runs no image of its own yet (mcr.microsoft.com/dotnet/samples:aspnetapp): azd deploy " +
        "has not run")]
    [InlineData("--name distributor -o tsv", "distributor--r1\tdistributor--r1\tcrfake.azurecr.io/d:1\t0",
        "distributor: its revision has no probes, so ready says nothing")]
    [InlineData("--revision receiver-express--r1 --query [properties.runningState", "Activating\tNone",
        "receiver-express: revision receiver-express--r1 is Activating None")]
    [InlineData("--revision distributor--r1 --query [].join", "",
        "distributor: revision distributor--r1 runs no replica")]
    [InlineData("logs show --revision receiver-express--r1",
        "2026-11-26T10:00:00Z level=error msg=\"amqp: link detached, reason: *Error{Condition: " +
        "amqp:unauthorized-access, Description: Unauthorized access. Listen claim(s) are required\"",
        "receiver-express: its sidecar is refused by Service Bus (its role may not have applied yet): ... " +
        "2026-11-26T10:00:00Z level=error")]
    public void An_app_that_cannot_take_a_burst_yet_is_named_with_what_failed_in_one_line(string call, string answer,
        string reason)
    {
        using var azure = new FakeAzure().Respond(call, answer);
        Ready(azure);

        var (exitCode, output) = WaitReady(azure, "--timeout", "0");

        Assert.True(exitCode == 1, output);
        var line = Assert.Single(output.Trim().Split('\n'));
        Assert.StartsWith("not ready for a burst: " + reason, line, StringComparison.Ordinal);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void It_waits_saying_for_what_and_stops_at_its_bound_naming_the_app()
    {
        using var azure = new FakeAzure()
            .Respond("--name distributor -o tsv", AppState("distributor--r2", "distributor--r1"));
        Ready(azure);

        var (exitCode, output) = WaitReady(azure, "--timeout", "10");

        Assert.True(exitCode == 1, output);
        var lines = output.Trim().Split('\n');
        Assert.Equal(2, lines.Length);
        Assert.StartsWith(
            "waiting for the trio to be ready for a burst (0 s of 10 s): distributor: its latest revision " +
            "distributor--r2 is not ready yet", lines[0], StringComparison.Ordinal);
        Assert.StartsWith("not ready for a burst after 10 s: distributor: its latest revision distributor--r2",
            lines[1], StringComparison.Ordinal);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Without_az_signed_in_it_says_what_it_did_not_check_and_lets_azd_up_finish()
    {
        using var azure = new FakeAzure().Fail("account show", "Please run 'az login' to setup account.");

        var (exitCode, output) = WaitReady(azure);

        Assert.True(exitCode == 0, output);
        Assert.StartsWith("not checked whether the trio is ready for a burst: az is not signed in", output.Trim(),
            StringComparison.Ordinal);
    }

    private static (int ExitCode, string Output) WaitReady(FakeAzure azure, params string[] arguments) =>
        azure.Run("sh", ["scripts/wait-ready.sh", .. arguments]);
}
