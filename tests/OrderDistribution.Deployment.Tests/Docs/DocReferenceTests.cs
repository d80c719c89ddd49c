using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// What README.md and docs/ name in the repository exists: each relative link and its anchor, each file, script and
/// folder, each project, test project and test class, each heading the code and the docs cite by name, and each
/// package the projects use. A page that names a thing renamed or removed fails here, not in a reader's hands.
/// </summary>
public sealed partial class DocReferenceTests
{
    [Fact]
    public void Every_relative_link_in_the_docs_leads_to_a_file_and_a_heading_that_exist()
    {
        var broken = MarkdownDocs.Files.SelectMany(file => MarkdownDocs.Links(file).Select(link =>
        {
            var (path, anchor) = link.Target.Split('#', 2) is [var p, var a] ? (p, a) : (link.Target, null);
            var target = path.Length == 0
                ? file
                : Path.GetRelativePath(Repo.Root, Path.GetFullPath(Path.Combine(
                    Path.GetDirectoryName(Repo.PathOf(file))!, Uri.UnescapeDataString(path)))).Replace('\\', '/');
            if (!File.Exists(Repo.PathOf(target)) && !Directory.Exists(Repo.PathOf(target)))
            {
                return $"{link.Line}: {link.Target}: no file or folder {target}";
            }

            return anchor is null || !target.EndsWith(".md", StringComparison.Ordinal)
                || MarkdownDocs.Anchors(target).Contains(anchor)
                    ? null
                    : $"{link.Line}: {link.Target}: {target} has no heading whose anchor is #{anchor}";
        })).OfType<string>().ToList();

        MarkdownDocs.AssertNone("links that lead nowhere", broken);
    }

    [Fact]
    public void Every_file_script_and_folder_the_docs_name_exists()
    {
        var missing = MarkdownDocs.Files.SelectMany(MarkdownDocs.Text)
            .SelectMany(line => RepoPath().Matches(line.Text)
                .Where(match => !IsPattern(line.Text, match))
                .Select(match => match.Value.TrimEnd('.'))
                .Where(path => !path.Split('/').Any(part => part is "bin" or "obj")
                    && !File.Exists(Repo.PathOf(path)) && !Directory.Exists(Repo.PathOf(path)))
                .Select(path => $"{line}: {path}"))
            .ToList();

        MarkdownDocs.AssertNone("paths the docs name that do not exist", missing);
    }

    [Fact]
    public void Every_project_test_project_and_test_class_the_docs_name_exists()
    {
        var projects = Directory.EnumerateFiles(Repo.Root, "*.csproj", SearchOption.AllDirectories)
            .Where(path => !path.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"))
            .Select(Path.GetFileNameWithoutExtension).OfType<string>().ToHashSet(StringComparer.Ordinal);
        var classes = Directory.EnumerateFiles(Repo.PathOf("tests"), "*.cs", SearchOption.AllDirectories)
            .SelectMany(path => ClassDeclaration().Matches(File.ReadAllText(path)).Select(m => m.Groups["name"].Value))
            .ToHashSet(StringComparer.Ordinal);

        var missing = MarkdownDocs.Files.SelectMany(MarkdownDocs.Text).SelectMany(line =>
            ProjectName().Matches(line.Text).Select(m => m.Value)
                .Where(name => !Repo.Exists(name)
                    && !projects.Any(p => name == p || name.StartsWith(p + ".", StringComparison.Ordinal)))
                .Select(name => $"{line}: project {name}")
            .Concat(ShortTestProject().Matches(line.Text).Select(m => m.Value)
                .Select(name => name.StartsWith("OrderDistribution.", StringComparison.Ordinal)
                    ? name
                    : $"OrderDistribution.{name}")
                .Where(name => !projects.Contains(name))
                .Select(name => $"{line}: test project {name}"))
            .Concat(TestClass().Matches(line.Text).Select(m => m.Value)
                .Where(name => !classes.Contains(name))
                .Select(name => $"{line}: test class {name}")))
            .ToList();

        MarkdownDocs.AssertNone("projects and test classes that do not exist", missing);
    }

    [Fact]
    public void Every_heading_the_code_and_the_docs_cite_by_name_exists()
    {
        string[] folders = ["src", "tests", "scripts", "components-pubsub", "components-bindings", "infra", "docs"];
        string[] extensions = [".cs", ".sh", ".yaml", ".bicep", ".md", ".kql"];
        var files = folders
            .SelectMany(folder => Directory.EnumerateFiles(Repo.PathOf(folder), "*", SearchOption.AllDirectories))
            .Where(path => extensions.Contains(Path.GetExtension(path))
                && !path.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj"))
            .Append(Repo.PathOf("README.md"));

        var missing = files.SelectMany(path => Citation().Matches(File.ReadAllText(path)).Select(match =>
        {
            var page = match.Groups["page"].Value;
            var doc = page.Contains('/', StringComparison.Ordinal) ? page : $"docs/{page}";
            var heading = Regex.Replace(match.Groups["heading"].Value.Replace("`", "", StringComparison.Ordinal),
                @"\s*\n\s*(?:///?\s*|#\s*)?", " ");
            var where = Path.GetRelativePath(Repo.Root, path);
            if (!Repo.Exists(doc))
            {
                return $"{where}: cites {doc}, which does not exist";
            }

            return MarkdownDocs.Titles(doc).Any(h => h.StartsWith(heading, StringComparison.OrdinalIgnoreCase))
                ? null
                : $"{where}: cites {doc}, \"{heading}\": no such heading";
        })).OfType<string>().ToList();

        MarkdownDocs.AssertNone("cited headings that do not exist", missing);
    }

    [Fact]
    public void Every_package_the_projects_use_is_named_in_the_packages_page()
    {
        var page = Repo.Read("docs/packages.md");
        var unnamed = XDocument.Load(Repo.PathOf("Directory.Packages.props")).Descendants("PackageVersion")
            .Select(package => (string?)package.Attribute("Include")).OfType<string>()
            .Where(name => !page.Contains($"`{name}`", StringComparison.Ordinal))
            .ToList();

        Assert.True(unnamed.Count == 0,
            $"docs/packages.md does not say why each is used: {string.Join(", ", unnamed)}");
    }

    /// <summary>A path with a placeholder or a wildcard right after it (src/X.$project, scripts/kql/*.kql).</summary>
    private static bool IsPattern(string text, Match match) =>
        text[(match.Index + match.Length)..].TrimStart('.') is [var next, ..] && "<{$*…[".Contains(next);

    [GeneratedRegex(@"(?<![\w./-])(?:\.ci|\.github|\.devcontainer|src|tests|scripts|docs|infra|components-pubsub" +
        @"|components-bindings)/[\w.@/-]*[\w/]")]
    private static partial Regex RepoPath();

    [GeneratedRegex(@"(?<![\w.])OrderDistribution(?:\.[A-Za-z]\w*)+")]
    private static partial Regex ProjectName();

    [GeneratedRegex(@"(?<![\w.])(?:[A-Z]\w*\.)+Tests\b")]
    private static partial Regex ShortTestProject();

    [GeneratedRegex(@"(?<![\w.])[A-Z][a-z]\w*Tests\b(?!\.)")]
    private static partial Regex TestClass();

    [GeneratedRegex(@"\bclass\s+(?<name>\w+)")]
    private static partial Regex ClassDeclaration();

    [GeneratedRegex(@"(?<page>(?:docs/)?[\w-]+\.md)`?\)?,\s*""(?<heading>[^""\n]+(?:\n[^""\n]+)?)""")]
    private static partial Regex Citation();
}
