namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// README.md and docs/ pass markdownlint-cli2 with the repository's settings (.markdownlint-cli2.jsonc), which
/// scripts/install-tools.sh installs into .tools/ and .ci/run runs before the tests.
/// </summary>
public sealed class MarkdownLintTests
{
    private const string Linter = ".tools/node_modules/.bin/markdownlint-cli2";

    [Fact]
    public void The_docs_pass_the_markdown_linter_with_the_repository_settings()
    {
        Assert.SkipWhen(Repo.FindOnPath("node") is null,
            "node is not on PATH (install Node.js 20+): the linter runs on it");
        Assert.SkipUnless(Repo.Exists(Linter), "markdownlint-cli2 is not installed: run scripts/install-tools.sh");

        var (exitCode, output) = Repo.Run(Repo.PathOf(Linter));

        Assert.True(exitCode == 0, $"markdownlint-cli2:\n{output}");
        Assert.Contains("Linting:", output, StringComparison.Ordinal);
    }

    [Fact]
    public void Ci_installs_the_linter_and_lints_the_docs_before_it_runs_the_tests()
    {
        var lines = Repo.Read(".ci/run").Split('\n').Select(line => line.Trim()).ToList();

        var lint = lines.FindIndex(line => line.StartsWith(Linter, StringComparison.Ordinal));
        var test = lines.FindIndex(line => line.StartsWith("dotnet test", StringComparison.Ordinal));

        Assert.True(lint >= 0 && lint < test, $".ci/run must run {Linter} before the tests");
        Assert.Contains("\"markdownlint-cli2@$MARKDOWNLINT_CLI2_VERSION\"", Repo.Read("scripts/install-tools.sh"),
            StringComparison.Ordinal);
        Assert.True(Repo.Exists(".markdownlint-cli2.jsonc"), "the linter's settings are at the root");
    }
}
