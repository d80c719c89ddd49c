using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The Markdown a user reads (README.md and every page under docs/), read as GitHub renders it: its headings' anchors,
/// its links, its code (inline spans and fenced blocks, mermaid drawings left out) and its prose.
/// </summary>
internal static partial class MarkdownDocs
{
    /// <summary>Every page, as a path from the repository's root with '/' separators.</summary>
    public static IReadOnlyList<string> Files { get; } =
    [
        "README.md",
        .. Directory.EnumerateFiles(Repo.PathOf("docs"), "*.md", SearchOption.AllDirectories)
            .Select(path => Path.GetRelativePath(Repo.Root, path).Replace('\\', '/'))
            .Order(StringComparer.Ordinal),
    ];

    /// <summary>Passes with nothing found; fails listing every finding.</summary>
    public static void AssertNone(string what, IReadOnlyList<string> found) =>
        Assert.True(found.Count == 0, $"{what}:\n{string.Join('\n', found)}");

    /// <summary>One line of a page: its number, its text, and whether it sits in a fenced code block.</summary>
    public sealed record Line(string File, int Number, string Text, bool InCode)
    {
        public override string ToString() => $"{File}:{Number}";
    }

    /// <summary>The page's lines but those of mermaid drawings (their ids name nothing in the repository).</summary>
    public static IEnumerable<Line> Lines(string file)
    {
        var fence = (string?)null;
        var number = 0;
        foreach (var text in File.ReadLines(Repo.PathOf(file)))
        {
            number++;
            var trimmed = text.TrimStart();
            if (trimmed.StartsWith("```", StringComparison.Ordinal))
            {
                fence = fence is null ? trimmed[3..].Trim() : null;
                continue;
            }

            if (fence is "mermaid")
            {
                continue;
            }

            yield return new Line(file, number, text, fence is not null);
        }
    }

    /// <summary>
    /// The code a page gives: each inline span outside code blocks, and each line of a code block with its shell
    /// comment cut off.
    /// </summary>
    public static IEnumerable<(Line Line, string Code)> Code(string file) =>
        Lines(file).SelectMany(line => line.InCode
            ? [(line, Regex.Replace(line.Text, @"\s#\s.*$", ""))]
            : InlineCode().Matches(line.Text).Select(match => (line, match.Groups["code"].Value)));

    /// <summary>The prose and code of a page outside code blocks, with its links' targets left out.</summary>
    public static IEnumerable<Line> Text(string file) =>
        Lines(file).Select(line => line with { Text = Link().Replace(line.Text, "[${text}]") });

    /// <summary>Each relative link's target (path and anchor), not those inside code.</summary>
    public static IEnumerable<(Line Line, string Target)> Links(string file) =>
        Lines(file).Where(line => !line.InCode)
            .SelectMany(line => Link().Matches(InlineCode().Replace(line.Text, ""))
                .Select(m => (line, m.Groups["target"].Value)))
            .Where(link => !Uri.TryCreate(link.Item2, UriKind.Absolute, out _));

    /// <summary>The anchors GitHub gives the page's headings: duplicates numbered -1, -2, ...</summary>
    public static HashSet<string> Anchors(string file)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        foreach (var heading in Headings(file))
        {
            var slug = Slug(heading);
            var anchor = slug;
            for (var n = 1; !anchors.Add(anchor); n++)
            {
                anchor = $"{slug}-{n}";
            }
        }

        return anchors;
    }

    /// <summary>The page's headings as they read, inline markup removed.</summary>
    public static IEnumerable<string> Headings(string file) =>
        Lines(file).Where(line => !line.InCode && HeadingLine().IsMatch(line.Text))
            .Select(line => Plain(HeadingLine().Match(line.Text).Groups["text"].Value));

    /// <summary>What a citation may name: the page's headings and its paragraphs' bold leads (**Lead.**).</summary>
    public static IEnumerable<string> Titles(string file) =>
        Headings(file).Concat(Lines(file).Where(line => !line.InCode)
            .Select(line => BoldLead().Match(line.Text)).Where(m => m.Success).Select(m => m.Groups["lead"].Value));

    /// <summary>GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.</summary>
    public static string Slug(string heading) =>
        NotInSlug().Replace(heading.ToLowerInvariant(), "").Replace(' ', '-');

    private static string Plain(string markdown) =>
        Link().Replace(markdown, "${text}").Replace("`", "", StringComparison.Ordinal)
            .Replace("*", "", StringComparison.Ordinal).Trim();

    [GeneratedRegex("`(?<code>[^`]+)`")]
    private static partial Regex InlineCode();

    [GeneratedRegex(@"!?\[(?<text>[^\]]*)\]\((?<target>[^)\s]+)\)")]
    private static partial Regex Link();

    [GeneratedRegex(@"^#{1,6}\s+(?<text>.+?)\s*#*\s*$")]
    private static partial Regex HeadingLine();

    [GeneratedRegex(@"^\s*(?:[-*]\s+)?\*\*(?<lead>[^*]+)\*\*")]
    private static partial Regex BoldLead();

    [GeneratedRegex(@"[^\p{L}\p{N} _-]")]
    private static partial Regex NotInSlug();
}
