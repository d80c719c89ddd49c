using System.Text.Json;
using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Each core project's stryker-config.json, as Stryker.NET reads it: mutants reach the tests through the Microsoft
/// Testing Platform runner, each mutant reruns only the tests that reach it, against fast test projects that exist and
/// answer that runner; scripts/mutation-test.sh and docs/testing.md name the same projects.
/// </summary>
public sealed class MutationConfigTests
{
    private static readonly string[] CoreProjects =
        ["Messaging", "Distributor", "Receiver", "Storage", "ServiceDefaults"];

    private static readonly string[] SlowTestProjects =
        ["Trio.Tests", "RealParts.Tests", "Deployment.Tests", "LoadTool.Tests", "Brokers.Tests"];

    public static TheoryData<string> Projects => [.. CoreProjects];

    [Theory]
    [MemberData(nameof(Projects))]
    public void A_core_project_is_mutated_through_the_MTP_runner_per_test_against_fast_projects_that_answer_it(
        string project)
    {
        var config = Config(project);

        Assert.Equal($"OrderDistribution.{project}.csproj", config.GetProperty("project").GetString());
        Assert.Equal("mtp", config.GetProperty("test-runner").GetString());
        Assert.Equal("perTest", config.GetProperty("coverage-analysis").GetString());
        Assert.True(config.GetProperty("thresholds").GetProperty("break").GetInt32() >= 85);
        foreach (var testProject in TestProjects(project))
        {
            Assert.DoesNotContain(SlowTestProjects, slow => testProject.EndsWith($"OrderDistribution.{slow}",
                StringComparison.Ordinal));
            var csproj = Repo.Read($"tests/{testProject}/{testProject}.csproj");
            Assert.Contains("""<PackageReference Include="xunit.v3.mtp-v2" />""", csproj, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void The_script_runs_every_configured_project_and_the_docs_name_each_ones_test_projects()
    {
        var configured = Directory.GetFiles(Repo.PathOf("src"), "stryker-config.json", SearchOption.AllDirectories)
            .Select(path => Path.GetFileName(Path.GetDirectoryName(path))!["OrderDistribution.".Length..])
            .Order();
        Assert.Equal(CoreProjects.Order(), configured);
        Assert.Contains($"set -- {string.Join(' ', CoreProjects)}", Repo.Read("scripts/mutation-test.sh"),
            StringComparison.Ordinal);

        var docs = Repo.Read("docs/testing.md");
        foreach (var project in CoreProjects)
        {
            var row = DocsRow(project).Match(docs);
            Assert.True(row.Success, $"docs/testing.md has no row for {project}");
            Assert.Equal(
                TestProjects(project).Select(p => p["OrderDistribution.".Length..]),
                row.Groups["tests"].Value.Split(", ").Select(t => t.Trim()));
        }
    }

    private static JsonElement Config(string project) =>
        JsonDocument.Parse(Repo.Read($"src/OrderDistribution.{project}/stryker-config.json"))
            .RootElement.GetProperty("stryker-config");

    private static IEnumerable<string> TestProjects(string project) =>
        Config(project).GetProperty("test-projects").EnumerateArray()
            .Select(path => Path.GetFileNameWithoutExtension(path.GetString()!));

    private static Regex DocsRow(string project) =>
        new($@"^\| {project} \| (?<tests>[^|]+) \|$", RegexOptions.Multiline);
}
