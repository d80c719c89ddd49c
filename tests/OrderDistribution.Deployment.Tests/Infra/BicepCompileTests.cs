namespace OrderDistribution.Deployment.Tests;

/// <summary>The real Bicep compiler on infra/: it builds and lints without a single warning.</summary>
public class BicepCompileTests
{
    [RequiresBicepFact]
    public void Main_bicep_compiles_without_warnings()
    {
        // Build fails the test on any error or warning; the template it returns has the deployment's resources.
        Assert.NotEmpty(BicepCompiler.Resources(BicepCompiler.Main));
    }

    [RequiresBicepFact]
    public void Main_bicep_passes_the_linter_without_warnings()
    {
        var (exitCode, output) = BicepCompiler.Run("lint", BicepCompiler.MainFile);
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
}
