namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/query-kql.sh with a fake az: the subscription, the time window and the arguments it refuses.
/// </summary>
public sealed class QueryKqlTests
{
    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_names_the_deployed_subscription_unless_told_another()
    {
        using var azure = new FakeAzure();
        Assert.Equal(0, azure.Run("bash", "scripts/query-kql.sh", "cycle-time").ExitCode);
        Assert.Contains($"--subscription {FakeAzure.Subscription} ",
            azure.Calls.Single(c => c.StartsWith("monitor app-insights query", StringComparison.Ordinal)),
            StringComparison.Ordinal);

        using var other = new FakeAzure();
        Assert.Equal(0,
            other.Run("bash", "scripts/query-kql.sh", "--subscription", "other-sub", "cycle-time").ExitCode);
        Assert.Contains("--subscription other-sub ",
            other.Calls.Single(c => c.StartsWith("monitor app-insights query", StringComparison.Ordinal)),
            StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_measures_the_cycle_time_from_the_scheduled_instant_it_is_given()
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "--scheduled-at", "2026-11-24T10:00:30Z",
            "cycle-time");

        Assert.True(exitCode == 0, output);
        var query = azure.Calls.Single(c => c.StartsWith("monitor app-insights query", StringComparison.Ordinal));
        Assert.Contains("let scheduledAt = datetime(2026-11-24T10:00:30Z);", query, StringComparison.Ordinal);
        Assert.DoesNotContain("datetime(null)", query, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_says_cycle_time_has_no_start_without_the_scheduled_instant_and_refuses_a_local_time()
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "cycle-time");
        Assert.True(exitCode == 0, output);
        Assert.Contains("cycle-time: no --scheduled-at, so no cycle time", output, StringComparison.Ordinal);

        var (refused, message) = azure.Run("bash", "scripts/query-kql.sh", "--scheduled-at", "2026-11-24 10:00:30",
            "cycle-time");
        Assert.Equal(2, refused);
        Assert.Contains("is not a UTC instant", message, StringComparison.Ordinal);
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_installs_the_log_analytics_extension_the_console_log_query_needs()
    {
        using var azure = new FakeAzure(extensionsInstalled: false);
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "lock-lost");

        Assert.True(exitCode == 0, output);
        Assert.Contains("extension add --name log-analytics --only-show-errors", azure.Calls);
        Assert.True(azure.Calls.IndexOf("extension add --name log-analytics --only-show-errors")
            < azure.Calls.FindIndex(c => c.StartsWith("monitor log-analytics query", StringComparison.Ordinal)));
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Query_kql_refuses_an_unknown_query_name_before_calling_azure()
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "no-such-query");
        Assert.Equal(2, exitCode);
        Assert.Contains("no query no-such-query", output, StringComparison.Ordinal);
        Assert.Empty(azure.Calls);
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("30m", "PT30M")]
    [InlineData("1h", "PT1H")]
    [InlineData("1d", "P1D")]
    [InlineData("1d12h", "P1DT12H")]
    [InlineData("2h30m", "PT2H30M")]
    [InlineData("90s", "PT90S")]
    public void Query_kql_turns_an_offset_into_the_iso_duration_log_analytics_wants(string offset, string timespan)
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "--offset", offset, "lock-lost",
            "cycle-time");

        Assert.True(exitCode == 0, output);
        var logAnalytics = azure.Calls.Single(c =>
            c.StartsWith("monitor log-analytics query", StringComparison.Ordinal));
        Assert.EndsWith($"--timespan {timespan} -o json", logAnalytics, StringComparison.Ordinal);
        Assert.Contains($"--subscription {FakeAzure.Subscription} ", logAnalytics, StringComparison.Ordinal);
        // app-insights query takes the offset as typed (##d##h##m).
        Assert.Contains($"--offset {offset} -o json",
            azure.Calls.Single(c => c.StartsWith("monitor app-insights query", StringComparison.Ordinal)),
            StringComparison.Ordinal);
    }

    [RequiresProgramTheory("bash", "apt-get install bash")]
    [InlineData("1x")]
    [InlineData("h")]
    [InlineData("1h-")]
    [InlineData("")]
    public void Query_kql_refuses_an_offset_that_is_no_duration(string offset)
    {
        using var azure = new FakeAzure();
        var (exitCode, output) = azure.Run("bash", "scripts/query-kql.sh", "--offset", offset, "lock-lost");

        Assert.Equal(2, exitCode);
        Assert.Contains("is not a duration", output, StringComparison.Ordinal);
        Assert.Empty(azure.Calls);
    }
}
