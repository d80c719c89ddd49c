using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The results file (<c>--results</c>, default results/LOG.jsonl): one <see cref="BurstResult"/> per line, as JSON.
/// Each write renders the Markdown log beside it (<c>LOG.md</c>) from every record, whole.
/// </summary>
public static class ResultsFile
{
    public static readonly string DefaultPath = Path.Combine("results", "LOG.jsonl");

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web)
    {
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.CamelCase) },
        TypeInfoResolver = new DefaultJsonTypeInfoResolver { Modifiers = { FiguresOnly } },
    };

    /// <summary>The Markdown log rendered beside the results file at <paramref name="path"/>.</summary>
    public static string MarkdownOf(string path) => Path.ChangeExtension(Path.GetFullPath(path), ".md");

    public static string Line(BurstResult result) => JsonSerializer.Serialize(result, Json);

    public static BurstResult Parse(string line) =>
        JsonSerializer.Deserialize<BurstResult>(line, Json) ?? throw new JsonException("null is no burst result");

    /// <summary>Appends <paramref name="result"/> and renders the Markdown log again.</summary>
    public static async Task AppendAsync(string path, BurstResult result, CancellationToken cancellationToken)
    {
        Refuse(path);
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        await File.AppendAllTextAsync(path, Line(result) + "\n", cancellationToken);
        await RenderAsync(path, cancellationToken);
    }

    /// <summary>Writes every record again, <paramref name="results"/> in place of what the file held.</summary>
    public static async Task RewriteAsync(
        string path, IEnumerable<BurstResult> results, CancellationToken cancellationToken)
    {
        Refuse(path);
        var text = new StringBuilder();
        foreach (var result in results)
        {
            text.Append(Line(result)).Append('\n');
        }

        var written = path + ".writing";
        await File.WriteAllTextAsync(written, text.ToString(), cancellationToken);
        File.Move(written, path, overwrite: true);
        await RenderAsync(path, cancellationToken);
    }

    /// <summary>Every record, in order.</summary>
    /// <exception cref="FileNotFoundException">There is no results file at <paramref name="path"/>.</exception>
    /// <exception cref="InvalidDataException">
    /// A line is no burst result; the message names the file and line.
    /// </exception>
    public static async Task<IReadOnlyList<BurstResult>> ReadAsync(string path, CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
        {
            throw new FileNotFoundException(
                $"No results file at {path}: run 'order-load run' (or scripts/compare-local.sh) first.", path);
        }

        var lines = await File.ReadAllLinesAsync(path, cancellationToken);
        var results = new List<BurstResult>();
        for (var i = 0; i < lines.Length; i++)
        {
            if (lines[i].Length == 0)
            {
                continue;
            }

            try
            {
                results.Add(Parse(lines[i]));
            }
            catch (JsonException e)
            {
                throw new InvalidDataException(
                    $"{path} line {i + 1} is not a burst result ({FailureText.FirstLine(e.Message)})", e);
            }
        }

        return results;
    }

    /// <summary>
    /// Figures computed from the others are not written, but whether a burst was complete is, for whoever reads the
    /// file (it is read as the figures say).
    /// </summary>
    private static void FiguresOnly(JsonTypeInfo info)
    {
        foreach (var computed in info.Properties.Where(p => p.Set is null && p.Name != "complete").ToList())
        {
            info.Properties.Remove(computed);
        }
    }

    private static async Task RenderAsync(string path, CancellationToken cancellationToken) =>
        await File.WriteAllTextAsync(
            MarkdownOf(path), ResultsMarkdown.Of(await ReadAsync(path, cancellationToken)), cancellationToken);

    /// <summary>Whether <paramref name="path"/> is where the Markdown log of a results file goes.</summary>
    public static bool IsMarkdown(string path) => Path.GetFullPath(path) == MarkdownOf(path);

    /// <summary>The records are never written over the Markdown log rendered from them.</summary>
    private static void Refuse(string path)
    {
        if (IsMarkdown(path))
        {
            throw new ArgumentException(
                $"--results names the results file the records go to (e.g. {DefaultPath}), not a Markdown log: {path}");
        }
    }
}
