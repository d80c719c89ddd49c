using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// infra/ on every Bicep release the project tests (<see cref="BicepCompiler.Releases"/>), not only the newest: azd
/// compiles with a Bicep of its own, and docs/azure.md names the releases that build it.
/// </summary>
public partial class BicepReleaseTests
{
    public static TheoryData<string> Releases() => [.. BicepCompiler.Releases];

    [RequiresBicepTheory]
    [MemberData(nameof(Releases))]
    public void Main_bicep_builds_without_an_error_on_each_tested_release(string release)
    {
        var (template, warnings) =
            BicepCompiler.BuildWith(BicepCompiler.PathOfRelease(release), BicepCompiler.MainFile);

        Assert.NotEmpty(BicepCompiler.Resources(template));
        AssertOnlyWarnings(release, warnings);
    }

    [RequiresBicepTheory]
    [MemberData(nameof(Releases))]
    public void Every_bicepparam_azd_deploys_with_builds_without_an_error_on_each_tested_release(string release)
    {
        var files = Directory.GetFiles(Repo.PathOf("infra"), "*.bicepparam");
        Assert.NotEmpty(files);
        foreach (var file in files)
        {
            var service = Path.GetFileNameWithoutExtension(file);
            var (exitCode, output) = Repo.Run("env", [
                .. AzdDeployEnvironment.Of(service, "crfake.azurecr.io/order-distribution/app:azd-deploy-1"),
                BicepCompiler.PathOfRelease(release), "build-params", file, "--stdout"]);

            Assert.True(exitCode == 0, $"bicep {release} build-params {service}: exit {exitCode}\n{output}");
            AssertOnlyWarnings(release, DiagnosticLines(output));
        }
    }

    [RequiresBicepFact]
    public void The_docs_name_exactly_the_releases_the_tests_build_infra_with()
    {
        // What docs/azure.md tells a user works, and what azd should be pointed at (AZD_BICEP_TOOL_PATH).
        var docs = Repo.Read("docs/azure.md");
        var named = TestedReleasesRegex().Match(docs);

        Assert.True(named.Success, "docs/azure.md has no line 'Tested Bicep releases: ...'");
        Assert.Equal(BicepCompiler.Releases, named.Groups["releases"].Value.Split(", "));
        Assert.Contains("AZD_BICEP_TOOL_PATH", docs, StringComparison.Ordinal);
        Assert.True(BicepCompiler.Releases.Count >= 2, "the tests build infra/ on one Bicep release only");
    }

    /// <summary>The newest release builds clean; an older one may warn (no types for newer API versions).</summary>
    private static void AssertOnlyWarnings(string release, string diagnostics)
    {
        var lines = DiagnosticLines(diagnostics).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        if (release == BicepCompiler.Releases[^1])
        {
            Assert.True(lines.Length == 0, $"bicep {release}:\n{diagnostics}");
        }

        Assert.All(lines, line => Assert.Contains(" : Warning ", line, StringComparison.Ordinal));
    }

    /// <summary>The compiler's diagnostics (file(line,col) : Level CODE: text) in its output, one a line.</summary>
    private static string DiagnosticLines(string output) =>
        string.Join('\n', output.Split('\n').Where(l => DiagnosticRegex().IsMatch(l)));

    [GeneratedRegex(@"^Tested Bicep releases: (?<releases>[0-9., ]+)\.$", RegexOptions.Multiline)]
    private static partial Regex TestedReleasesRegex();

    [GeneratedRegex(@"\(\d+,\d+\) : (Error|Warning|Info) ")]
    private static partial Regex DiagnosticRegex();
}
