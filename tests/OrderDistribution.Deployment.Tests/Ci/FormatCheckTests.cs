namespace OrderDistribution.Deployment.Tests;

/// <summary>The code's style is checked on every CI run, from the one .editorconfig, before any test runs.</summary>
public sealed class FormatCheckTests
{
    [Fact]
    public void Ci_checks_the_format_before_it_runs_the_tests()
    {
        var lines = Repo.Read(".ci/run").Split('\n').Select(line => line.Trim()).ToList();

        var format = lines.FindIndex(line =>
            line.StartsWith("dotnet format --verify-no-changes", StringComparison.Ordinal));
        var test = lines.FindIndex(line => line.StartsWith("dotnet test", StringComparison.Ordinal));

        Assert.True(format >= 0, ".ci/run must run `dotnet format --verify-no-changes`");
        Assert.True(format < test, ".ci/run must check the format before it runs the tests");
    }

    [Fact]
    public void The_editorconfig_at_the_root_holds_the_style_the_code_is_written_in()
    {
        var editorConfig = Repo.Read(".editorconfig");

        Assert.Contains("root = true", editorConfig, StringComparison.Ordinal);
        Assert.Contains("csharp_style_namespace_declarations = file_scoped", editorConfig, StringComparison.Ordinal);
        Assert.Contains("dotnet_sort_system_directives_first = true", editorConfig, StringComparison.Ordinal);
        Assert.Contains("dotnet_diagnostic.IDE0005.severity", editorConfig, StringComparison.Ordinal);
    }
}
