using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The repository states the facts it rests on in its own docs (docs/dapr-sidecar.md, docs/local-run.md, ...) and cites
/// them by file and heading: a reader of a clone has no record outside it to follow.
/// </summary>
public sealed partial class CitationTests
{
    [Fact]
    public void No_file_a_user_reads_cites_a_record_outside_the_repository()
    {
        string[] roots = ["README.md", "dapr.yaml", "dapr.bindings.yaml", "azure.yaml"];
        string[] folders = ["components-pubsub", "components-bindings", "infra", "scripts", "docs", "src"];
        var separator = Path.DirectorySeparatorChar;
        string[] extensions = [".md", ".yaml", ".yml", ".bicep", ".sh", ".kql", ".cs", ".json"];
        var files = roots.Select(Repo.PathOf).Concat(folders.SelectMany(folder =>
            Directory.EnumerateFiles(Repo.PathOf(folder), "*", SearchOption.AllDirectories)
                .Where(path => !path.Contains($"{separator}bin{separator}", StringComparison.Ordinal)
                    && !path.Contains($"{separator}obj{separator}", StringComparison.Ordinal)
                    && extensions.Contains(Path.GetExtension(path)))));

        var found = files
            .SelectMany(path => File.ReadLines(path).Select((line, i) => (path, line, number: i + 1)))
            .Where(l => OutsideRecord().IsMatch(l.line))
            .Select(l => $"{Path.GetRelativePath(Repo.Root, l.path)}:{l.number}: {l.line.Trim()}")
            .ToList();

        Assert.True(found.Count == 0, $"cite the repository's own docs instead:\n{string.Join('\n', found)}");
    }

    [GeneratedRegex(@"dapr-wire|\.\./shared/|/work/shared", RegexOptions.IgnoreCase)]
    private static partial Regex OutsideRecord();
}
