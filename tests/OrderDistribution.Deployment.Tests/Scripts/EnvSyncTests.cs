namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/azd-env-sync.sh, run by azd's preprovision hook, with a fake azd: .env into the azd environment, and what it
/// refuses before anything is provisioned.
/// </summary>
public sealed class EnvSyncTests
{
    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_unsets_a_setting_that_left_dot_env_so_its_default_applies_again()
    {
        using var azure = new FakeAzure();
        azure.SetAzdValue("MAX_ACTIVE_MESSAGES", "500").SetAzdValue("REQUEST_DEADLINE_SECONDS", "20");
        var env = azure.WriteFile(".env",
            "AZURE_LOCATION=eastus\nMESSAGING_MODEL=bindings\n# MAX_ACTIVE_MESSAGES=500\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.True(exitCode == 0, output);
        var values = azure.AzdValues;
        Assert.False(values.ContainsKey("MAX_ACTIVE_MESSAGES"), output);
        Assert.False(values.ContainsKey("REQUEST_DEADLINE_SECONDS"), output);
        Assert.Equal("bindings", values["MESSAGING_MODEL"]);
        Assert.Contains("env unset MAX_ACTIVE_MESSAGES", azure.AzdCalls);
        // Only the settings it owns: deployment outputs stay.
        Assert.Equal("rg-fake", values["AZURE_RESOURCE_GROUP"]);
    }

    [RequiresProgramTheory("sh", "apt-get install dash")]
    [InlineData("DAPR_COMPONENTS_MODEL", "pubsub", "MESSAGING_MODEL")]
    [InlineData("DAPR_PUBSUB_MODEL", "single", "MESSAGING_MODEL")]
    [InlineData("DELIVERY_DEADLINE_SECONDS", "20", "REQUEST_DEADLINE_SECONDS")]
    public void Env_sync_stops_the_provision_in_one_line_naming_the_new_setting_when_dot_env_sets_a_renamed_one(
        string old, string value, string renamed)
    {
        using var azure = new FakeAzure();
        var env = azure.WriteFile(".env", $"AZURE_LOCATION=eastus\nMESSAGING_MODEL=pubsub-bulk\n{old}={value}\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.Equal(1, exitCode);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains($"sets {old}, which is no longer read: set {renamed}", line, StringComparison.Ordinal);
        Assert.DoesNotContain(azure.AzdCalls,
            call => call.StartsWith("env set", StringComparison.Ordinal)
            || call.StartsWith("env unset", StringComparison.Ordinal));
    }

    [RequiresProgramTheory("sh", "apt-get install dash")]
    [InlineData(true)]
    [InlineData(false)]
    public void Env_sync_stops_the_provision_naming_messaging_model_when_the_azd_environment_still_sets_the_old_model(
        bool withDotEnv)
    {
        using var azure = new FakeAzure();
        azure.SetAzdValue("DAPR_COMPONENTS_MODEL", "bindings");
        var env = withDotEnv ? azure.WriteFile(".env",
            "AZURE_LOCATION=eastus\nMESSAGING_MODEL=bindings\n") : Path.Combine(Path.GetTempPath(),
            $"no-env-{Guid.NewGuid():N}");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.Equal(1, exitCode);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains(
            "the azd environment sets DAPR_COMPONENTS_MODEL, which is no longer read: set MESSAGING_MODEL (bindings, " +
            "pubsub-single or pubsub-bulk)", line, StringComparison.Ordinal);
        Assert.Contains("azd env unset DAPR_COMPONENTS_MODEL", line, StringComparison.Ordinal);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_stops_the_provision_when_azd_cannot_unset_a_setting_that_left_dot_env()
    {
        using var azure = new FakeAzure();
        azure.SetAzdValue("MAX_ACTIVE_MESSAGES", "500").WithoutAzdEnvUnset();
        var env = azure.WriteFile(".env", "AZURE_LOCATION=eastus\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.Equal(1, exitCode);
        Assert.Contains("could not unset MAX_ACTIVE_MESSAGES", output, StringComparison.Ordinal);
        Assert.Equal("500", azure.AzdValues["MAX_ACTIVE_MESSAGES"]);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_drops_windows_line_ends_spaces_inline_comments_and_quotes_from_the_values()
    {
        using var azure = new FakeAzure();
        var env = azure.WriteFile(".env",
            "AZURE_LOCATION=eastus\r\nMESSAGING_MODEL=pubsub-single   # one message per request\r\n" +
            "SERVICE_BUS_SKU=\"Premium\"\nMAX_MESSAGES_COUNT = 100\t# smaller " +
            "bulks\nSINGLE_MAX_CONCURRENT_HANDLERS='32'");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.True(exitCode == 0, output);
        var values = azure.AzdValues;
        Assert.Equal("pubsub-single", values["MESSAGING_MODEL"]);
        Assert.Equal("Premium", values["SERVICE_BUS_SKU"]);
        Assert.Equal("100", values["MAX_MESSAGES_COUNT"]);
        Assert.Equal("32", values["SINGLE_MAX_CONCURRENT_HANDLERS"]);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_refuses_another_location_for_a_deployed_environment_and_changes_nothing()
    {
        using var azure = new FakeAzure();
        var env = azure.WriteFile(".env", "AZURE_LOCATION=westeurope\nMESSAGING_MODEL=bindings\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.Equal(1, exitCode);
        Assert.Contains("AZURE_LOCATION=westeurope", output, StringComparison.Ordinal);
        Assert.Contains("deployed in eastus", output, StringComparison.Ordinal);
        Assert.DoesNotContain(azure.AzdCalls,
            call => call.StartsWith("env set", StringComparison.Ordinal)
            || call.StartsWith("env unset", StringComparison.Ordinal));
        Assert.Equal("eastus", azure.AzdValues["AZURE_LOCATION"]);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void Env_sync_takes_a_location_change_before_the_first_deployment()
    {
        using var azure = new FakeAzure();
        azure.RemoveAzdValue("AZURE_RESOURCE_GROUP");
        var env = azure.WriteFile(".env", "AZURE_LOCATION=westeurope\n");

        var (exitCode, output) = azure.Run("sh", "scripts/azd-env-sync.sh", env);

        Assert.True(exitCode == 0, output);
        Assert.Equal("westeurope", azure.AzdValues["AZURE_LOCATION"]);
    }
}
