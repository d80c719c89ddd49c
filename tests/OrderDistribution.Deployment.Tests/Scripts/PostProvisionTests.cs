namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// scripts/postprovision.sh, azd's postprovision hook, with a fake az: the unused model's components removed, and
/// azd never stopped by what it could not remove.
/// </summary>
public sealed class PostProvisionTests
{
    [RequiresProgramFact("sh", "apt-get install dash")]
    public void The_postprovision_hook_removes_the_unused_components_in_the_deployed_subscription()
    {
        using var azure = new FakeAzure();
        azure.Respond("dapr-component list", "q-order-ingress-input\nq-order-express-input");

        var (exitCode, output) = PostProvision(azure);

        Assert.True(exitCode == 0, output);
        var removes = azure.Calls.Where(c =>
            c.StartsWith("containerapp env dapr-component remove", StringComparison.Ordinal)).ToList();
        Assert.Equal(2, removes.Count);
        Assert.All(azure.Calls,
            call => Assert.Contains($"--subscription {FakeAzure.Subscription} ", call, StringComparison.Ordinal));
        Assert.Contains("--dapr-component-name q-order-express-input", removes[1], StringComparison.Ordinal);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void The_postprovision_hook_never_stops_azd_up_when_az_is_not_signed_in_and_says_how_to_finish()
    {
        using var azure = new FakeAzure();
        azure.Fail("account show", "Please run 'az login' to setup account.");

        var (exitCode, output) = PostProvision(azure);

        Assert.True(exitCode == 0, output);
        var line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.Contains("skipped removing the unused model's Dapr components", line, StringComparison.Ordinal);
        Assert.Contains("az is not signed in", line, StringComparison.Ordinal);
        Assert.EndsWith("To finish: az login && sh scripts/postprovision.sh", line, StringComparison.Ordinal);
        Assert.DoesNotContain(azure.Calls, call => call.Contains("dapr-component", StringComparison.Ordinal));
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void The_postprovision_hook_reports_a_component_it_could_not_remove_and_still_lets_azd_deploy()
    {
        using var azure = new FakeAzure();
        azure.Respond("dapr-component list", "q-order-ingress-input")
            .Fail("dapr-component remove", "(AuthorizationFailed) no write access");

        var (exitCode, output) = PostProvision(azure);

        Assert.True(exitCode == 0, output);
        Assert.Contains(
            "skipped removing the Dapr components q-order-ingress-input (ERROR: (AuthorizationFailed) no write access)",
            output, StringComparison.Ordinal);
        Assert.Contains("To finish: az login && sh scripts/postprovision.sh", output, StringComparison.Ordinal);
    }

    [RequiresProgramFact("sh", "apt-get install dash")]
    public void The_postprovision_hook_run_by_hand_reads_the_azd_environment()
    {
        using var azure = new FakeAzure();
        azure.SetAzdValue("AZURE_CONTAINER_APPS_ENVIRONMENT_NAME", "cae-fake");
        azure.Respond("dapr-component list", "q-order-ingress-input");

        var (exitCode, output) = azure.Run("sh", "scripts/postprovision.sh");

        Assert.True(exitCode == 0, output);
        var remove = Assert.Single(azure.Calls,
            c => c.StartsWith("containerapp env dapr-component remove", StringComparison.Ordinal));
        Assert.Contains($"--subscription {FakeAzure.Subscription} --resource-group rg-fake --name cae-fake", remove,
            StringComparison.Ordinal);
    }

    private static (int ExitCode, string Output) PostProvision(FakeAzure azure) =>
        azure.Run("env", "AZURE_SUBSCRIPTION_ID=" + FakeAzure.Subscription, "AZURE_RESOURCE_GROUP=rg-fake",
            "AZURE_CONTAINER_APPS_ENVIRONMENT_NAME=cae-fake", "sh", "scripts/postprovision.sh");
}
