namespace OrderDistribution.Deployment.Tests;

/// <summary>Run-time checks for the tools a test needs: the test skips, saying what is missing, where one is.</summary>
public static class RequiredTools
{
    public const string KqlCheckerPackageJson = ".tools/node_modules/@kusto/language-service-next/package.json";

    /// <summary>node, and @kusto/language-service-next in ./.tools.</summary>
    public static void KqlChecker()
    {
        Assert.SkipWhen(Repo.FindOnPath("node") is null,
            "node is not on PATH (install Node.js 20+), so the KQL files cannot be parsed");
        Assert.SkipUnless(Repo.Exists(KqlCheckerPackageJson),
            "the Kusto language service is not installed: run scripts/install-tools.sh");
    }
}
