namespace OrderDistribution.Deployment.Tests;

/// <summary>The real Bicep compiler on infra/: it builds and lints without a single warning.</summary>
public class BicepCompileTests
{
    [RequiresBicepFact]
    public void Main_bicep_compiles_without_warnings()
    {
        var template = BicepCompiler.Main;
        Assert.Equal("subscription", DeploymentScope(template));
    }

    [RequiresBicepFact]
    public void Main_bicep_passes_the_linter_without_warnings()
    {
        var (exitCode, output) = BicepCompiler.Run("lint", BicepFacts.Main);
        Assert.True(exitCode == 0 && output.Trim().Length == 0, $"bicep lint: exit {exitCode}\n{output}");
    }

    [RequiresBicepFact]
    public void The_linter_run_by_these_tests_reports_a_warning_when_there_is_one()
    {
        // The check above reads "no output" as "no warning": prove the compiler prints one for an unused parameter.
        var file = Path.Combine(Path.GetTempPath(), $"unused-{Guid.NewGuid():N}.bicep");
        File.WriteAllText(file, "param unused string\n");
        try
        {
            var (_, output) = BicepCompiler.Run("lint", file);
            Assert.Contains("no-unused-params", output, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(file);
        }
    }

    private static string DeploymentScope(System.Text.Json.Nodes.JsonObject template) =>
        template["$schema"]!.GetValue<string>().Contains("subscriptionDeploymentTemplate", StringComparison.Ordinal) ? "subscription" : "other";
}
