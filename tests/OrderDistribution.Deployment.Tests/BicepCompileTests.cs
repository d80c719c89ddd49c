namespace OrderDistribution.Deployment.Tests;

/// <summary>Runs the real Bicep compiler where one is installed (none is installable on this project's machines).</summary>
public class BicepCompileTests
{
    private const string Install = "Bicep CLI: https://learn.microsoft.com/azure/azure-resource-manager/bicep/install";

    [RequiresProgramFact("bicep", Install)]
    public void Main_bicep_compiles()
    {
        var (exitCode, output) = Repo.Run("bicep", "build", "infra/main.bicep", "--stdout");
        Assert.True(exitCode == 0, output);
    }

    [RequiresProgramFact("bicep", Install)]
    public void Main_bicep_passes_the_linter()
    {
        var (exitCode, output) = Repo.Run("bicep", "lint", "infra/main.bicep");
        Assert.True(exitCode == 0, output);
    }
}
