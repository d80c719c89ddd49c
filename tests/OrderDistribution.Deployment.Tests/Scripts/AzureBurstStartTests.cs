using System.Text.RegularExpressions;
using OrderDistribution.LoadTool.Reporting;
using static OrderDistribution.Deployment.Tests.AzureBurstRun;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/azure-burst.sh labelling how a burst started (cold or warm, and each app's replicas) and counting the
/// earlier bursts it compares with.
/// </summary>
public sealed class AzureBurstStartTests
{
    private const string Before = "2026-11-20T09:00:00+00:00";
    private const string After = "2026-11-20T11:00:00+00:00";
    private const string LastBurst = "2026-11-20T10:00:00Z";

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
    public void The_report_says_how_many_replicas_each_app_ran_at_the_instant_and_at_the_end()
    {
        using var azure = Deployed(replicas: 3);

        var (exitCode, output) = Burst(azure);

        Assert.True(exitCode == 0, output);
        Assert.Contains(
            "start: cold; tiered compilation: off; replicas at the scheduled instant: distributor=3 " +
            "receiver-express=3 receiver-standard=3; " +
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
        Directory.CreateDirectory(Path.GetDirectoryName(Results(azure))!);
        File.Copy(Results(scaledOut), Results(azure));

        var (first, firstOutput) = Burst(azure, "--start", "warm");
        var (second, secondOutput) = Burst(azure, "--start", "warm");

        Assert.True(first == 0 && second == 0, firstOutput + secondOutput);
        // The burst that started with 4 replicas per app is no comparison for one that started with 1.
        Assert.Contains(
            "comparable earlier bursts (model pubsub-bulk, start warm, same replicas at the instant, tiered " +
            "compilation off): 0,",
            firstOutput, StringComparison.Ordinal);
        Assert.Contains(
            "comparable earlier bursts (model pubsub-bulk, start warm, same replicas at the instant, tiered " +
            "compilation off): 1,",
            secondOutput, StringComparison.Ordinal);
        Assert.Equal(3, File.ReadAllLines(Results(azure)).Length);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Bursts_of_apps_run_with_tiered_compilation_are_compared_only_with_bursts_that_ran_the_same()
    {
        using var azure = Deployed();
        Assert.Equal(0, Burst(azure, "--start", "warm").ExitCode);
        using var tiered = Deployed(specific: a => a.Respond("DOTNET_TieredCompilation", "1"));
        Directory.CreateDirectory(Path.GetDirectoryName(Results(tiered))!);
        File.Copy(Results(azure), Results(tiered));

        var (first, firstOutput) = Burst(tiered, "--start", "warm");
        var (second, secondOutput) = Burst(tiered, "--start", "warm");

        Assert.True(first == 0 && second == 0, firstOutput + secondOutput);
        Assert.Contains("tiered compilation: on;", firstOutput, StringComparison.Ordinal);
        Assert.Contains("tiered compilation on): 0,", firstOutput, StringComparison.Ordinal);
        Assert.Contains("tiered compilation on): 1,", secondOutput, StringComparison.Ordinal);
        Assert.Equal(["off", "on", "on"],
            ResultsFile.ReadAsync(Results(tiered), CancellationToken.None).GetAwaiter().GetResult()
                .Select(r => r.Azure!.TieredCompilation));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Apps_of_which_only_some_run_with_tiered_compilation_are_recorded_as_mixed()
    {
        using var azure = Deployed(specific: a => a.Respond(
            "receiver-express--r1 --query properties.template.containers[0].env[?name=='DOTNET_TieredCompilation']",
            "1"));

        var (exitCode, output) = Burst(azure, "--start", "warm");

        Assert.True(exitCode == 0, output);
        Assert.Contains("tiered compilation: mixed;", output, StringComparison.Ordinal);
        Assert.Equal("mixed", LastResult(azure).Azure!.TieredCompilation);
    }
}
