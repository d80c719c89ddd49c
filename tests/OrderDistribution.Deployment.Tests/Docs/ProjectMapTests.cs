using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// docs/architecture.md's drawing of the projects (its mermaid flowchart) against the projects themselves: every
/// .csproj under src/ and tests/ and its ProjectReference items.
/// </summary>
public sealed partial class ProjectMapTests
{
    private const string Map = "docs/architecture.md";
    private const string Prefix = "OrderDistribution.";
    private static readonly string[] ProjectFolders = ["src", "tests"];

    [Fact]
    public void The_architecture_map_names_every_project_under_src_and_tests_and_no_other()
    {
        var (drawn, _) = Drawing();

        AssertSame("projects", Projects().Keys, drawn);
    }

    [Fact]
    public void The_architecture_map_draws_every_project_reference_and_no_other()
    {
        var (_, drawn) = Drawing();
        var references = Projects()
            .SelectMany(project => project.Value.Select(referenced => $"{project.Key} --> {referenced}"));

        AssertSame("references", references, drawn);
    }

    private static void AssertSame(string what, IEnumerable<string> actual, IEnumerable<string> drawn)
    {
        var missing = actual.Except(drawn).Order(StringComparer.Ordinal).ToList();
        var extra = drawn.Except(actual).Order(StringComparer.Ordinal).ToList();

        Assert.True(missing.Count == 0 && extra.Count == 0,
            $"{Map} must draw the {what} the .csproj files have. Not drawn: [{string.Join(", ", missing)}]. " +
            $"Drawn but not in any .csproj: [{string.Join(", ", extra)}].");
    }

    /// <summary>Each project (by name) and the projects its ProjectReference items name.</summary>
    private static Dictionary<string, string[]> Projects() =>
        ProjectFolders
            .SelectMany(folder =>
                Directory.EnumerateFiles(Repo.PathOf(folder), "*.csproj", SearchOption.AllDirectories))
            .Where(path => !path.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"))
            .ToDictionary(
                path => Path.GetFileNameWithoutExtension(path),
                path => XDocument.Load(path).Descendants("ProjectReference")
                    .Select(reference =>
                        Path.GetFileNameWithoutExtension(
                        ((string?)reference.Attribute("Include") ?? "").Replace('\\', '/')))
                    .ToArray());

    /// <summary>
    /// The projects and the references the map's flowchart draws. A node is <c>Id</c> or <c>Id["Label"]</c> and names
    /// the project OrderDistribution.{Label}; an edge is <c>From --> To</c>. Any other line fails, so nothing is drawn
    /// in a way this reading would miss.
    /// </summary>
    private static (HashSet<string> Projects, HashSet<string> References) Drawing()
    {
        var text = Repo.Read(Map);
        var block = MermaidBlock().Matches(text).Select(match => match.Groups["body"].Value)
            .SingleOrDefault(body => body.TrimStart().StartsWith("flowchart", StringComparison.Ordinal));
        Assert.True(block is not null, $"{Map} has no mermaid flowchart of the projects");

        var labels = new Dictionary<string, string>(StringComparer.Ordinal);
        var edges = new List<(string From, string To)>();
        foreach (var line in block.Split('\n').Select(line => line.Trim()))
        {
            if (line.Length == 0 || line.StartsWith("%%", StringComparison.Ordinal)
                || line.StartsWith("flowchart ", StringComparison.Ordinal)
                || line.StartsWith("subgraph ", StringComparison.Ordinal) || line == "end")
            {
                continue;
            }

            if (Node().Match(line) is { Success: true } node)
            {
                labels[node.Groups["id"].Value] =
                    node.Groups["label"] is { Success: true } label ? label.Value : node.Groups["id"].Value;
            }
            else if (Edge().Match(line) is { Success: true } edge)
            {
                edges.Add((edge.Groups["from"].Value, edge.Groups["to"].Value));
            }
            else
            {
                Assert.Fail(
                    $"{Map}: the projects' flowchart has a line that is neither a project nor a reference: '{line}'");
            }
        }

        string ProjectOf(string id) => Prefix + labels.GetValueOrDefault(id, id);
        return (
            labels.Keys.Concat(edges.SelectMany(edge => new[] { edge.From, edge.To })).Select(ProjectOf)
                .ToHashSet(StringComparer.Ordinal),
            edges.Select(edge => $"{ProjectOf(edge.From)} --> {ProjectOf(edge.To)}").ToHashSet(StringComparer.Ordinal));
    }

    [GeneratedRegex(@"```mermaid\r?\n(?<body>.*?)```", RegexOptions.Singleline)]
    private static partial Regex MermaidBlock();

    [GeneratedRegex(@"^(?<id>\w+)(\[""(?<label>[^""]+)""\])?$")]
    private static partial Regex Node();

    [GeneratedRegex(@"^(?<from>\w+)\s*-->\s*(?<to>\w+)$")]
    private static partial Regex Edge();
}
