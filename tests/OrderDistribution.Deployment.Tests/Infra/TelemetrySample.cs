using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// A sample of the apps' telemetry: the rows scripts/export-telemetry.sh recorded from a real burst
/// (Telemetry/recorded-sample.json) once there is one, else the hand-written rows in the same shape
/// (Telemetry/hand-written-sample.json); and a check of a query's
/// filters against it: for each table a query reads, the <c>where</c> clauses of that pipeline (up to its first
/// summarize, join, union or project) must all hold for at least one sample row. Only the filter forms the queries
/// use are understood; any other fails the check, so a new query form is never passed unchecked.
/// </summary>
internal static partial class TelemetrySample
{
    public const string HandWritten = "tests/OrderDistribution.Deployment.Tests/Telemetry/hand-written-sample.json";

    public const string Recorded = "tests/OrderDistribution.Deployment.Tests/Telemetry/recorded-sample.json";

    /// <summary>The recorded sample when a burst has been exported, else the hand-written one.</summary>
    public static string File => Repo.Exists(Recorded) ? Recorded : HandWritten;

    private static readonly Lazy<JsonObject> Sample = new(() => JsonNode.Parse(Repo.Read(File))!.AsObject());

    public static IReadOnlyList<JsonObject> Rows(string table) =>
        Sample.Value[table] is JsonArray rows ? rows.Select(r => r!.AsObject()).ToList() : [];

    public static string Dimension(JsonObject row, string key) => row["customDimensions"]?[key]?.ToString() ?? "";

    /// <summary>
    /// Each pipeline of the query that starts at a table: its table, and the sample rows all its filters keep.
    /// </summary>
    public static IEnumerable<(string Table, int Kept)> Pipelines(string query)
    {
        var lines = query.Split('\n').Select(l => l.Trim())
            .Where(l => l.Length > 0 && !l.StartsWith("//", StringComparison.Ordinal)).ToList();
        var lists = LetListRegex().Matches(query).ToDictionary(
            m => m.Groups["name"].Value,
            m => Regex.Matches(m.Groups["items"].Value, "\"([^\"]*)\"").Select(i => i.Groups[1].Value)
                .ToHashSet(StringComparer.Ordinal));

        for (var i = 0; i < lines.Count; i++)
        {
            if (lines[i].StartsWith("union ", StringComparison.Ordinal))
            {
                // Its tables on the lines below it, separated by commas, up to its first step.
                var first = i + 1;
                while (first < lines.Count && !lines[first].StartsWith('|'))
                {
                    first++;
                }

                var tables = lines[(i + 1)..first].SelectMany(l => l.Split(',', StringSplitOptions.RemoveEmptyEntries
                    | StringSplitOptions.TrimEntries)).ToList();
                Assert.All(tables, t => Assert.Matches(@"^\w+$", t));
                foreach (var table in tables.Where(t => Sample.Value[t] is not null))
                {
                    yield return (table, Kept(table, lines, first, lists));
                }

                i = first - 1;
                continue;
            }

            var start = TableStartRegex().Match(lines[i]);
            if (!start.Success || Sample.Value[start.Groups["table"].Value] is null)
            {
                continue;
            }

            var name = start.Groups["table"].Value;
            yield return (name, Kept(name, lines, i + 1, lists));
        }
    }

    /// <summary>The sample rows of <paramref name="table"/> that the pipeline's filters from line
    /// <paramref name="first"/> keep.</summary>
    private static int Kept(string table, List<string> lines, int first, Dictionary<string, HashSet<string>> lists)
    {
        var aliases = new Dictionary<string, string>(StringComparer.Ordinal);
        IEnumerable<JsonObject> kept = Rows(table);
        for (var j = first; j < lines.Count && lines[j].StartsWith('|'); j++)
        {
            var step = lines[j][1..].Trim();
            if (Regex.IsMatch(step, @"^(summarize|join|union|project|order|render|top|take)\b"))
            {
                break;
            }

            if (ExtendAliasRegex().Match(step) is { Success: true } alias)
            {
                aliases[alias.Groups["alias"].Value] = alias.Groups["column"].Value;
            }
            else if (step.StartsWith("where ", StringComparison.Ordinal))
            {
                var alternatives = step["where ".Length..].Split(" or ");
                kept = kept.Where(row => alternatives.Any(a => Holds(row, a.Trim(), lists, aliases))).ToList();
            }
        }

        return kept.Count();
    }

    private static bool Holds(JsonObject row, string filter, Dictionary<string, HashSet<string>> lists,
        Dictionary<string, string> aliases)
    {
        string Value(string column)
        {
            column = aliases.GetValueOrDefault(column, column);
            var dimension = DimensionRegex().Match(column);
            return dimension.Success ? Dimension(row, dimension.Groups["key"].Value) : row[column]?.ToString() ?? "";
        }

        if (InListRegex().Match(filter) is { Success: true } inList)
        {
            var list = inList.Groups["list"].Success
                ? lists[inList.Groups["list"].Value]
                : Regex.Matches(inList.Groups["items"].Value, "\"([^\"]*)\"").Select(i => i.Groups[1].Value)
                    .ToHashSet(StringComparer.Ordinal);
            return list.Contains(Value(inList.Groups["column"].Value));
        }

        if (IsNotEmptyRegex().Match(filter) is { Success: true } notEmpty)
        {
            return Value(notEmpty.Groups["column"].Value).Length > 0;
        }

        if (MatchesRegexRegex().Match(filter) is { Success: true } matches)
        {
            return Regex.IsMatch(Value(matches.Groups["column"].Value),
                matches.Groups["regex"].Value.Replace("\"\"", "\"", StringComparison.Ordinal));
        }

        if (BoolRegex().Match(filter) is { Success: true } boolean)
        {
            return string.Equals(Value(boolean.Groups["column"].Value), boolean.Groups["value"].Value,
                StringComparison.OrdinalIgnoreCase);
        }

        var text = StringFilterRegex().Match(filter);
        Assert.True(text.Success, $"the sample check does not understand the filter '{filter}'");
        var value = Value(text.Groups["column"].Value);
        var literal = text.Groups["literal"].Value;
        return text.Groups["op"].Value switch
        {
            "==" => value == literal,
            "startswith" => value.StartsWith(literal, StringComparison.OrdinalIgnoreCase),
            "endswith" => value.EndsWith(literal, StringComparison.OrdinalIgnoreCase),
            "contains" => value.Contains(literal, StringComparison.OrdinalIgnoreCase),
            // has: whole terms (Kusto's terms are runs of letters and digits); the queries use it on words only.
            _ => Regex.IsMatch(value, $@"(?<![A-Za-z0-9]){Regex.Escape(literal)}(?![A-Za-z0-9])",
                RegexOptions.IgnoreCase),
        };
    }

    [GeneratedRegex(@"let\s+(?<name>\w+)\s*=\s*dynamic\(\[(?<items>[^\]]*)\]\)")]
    private static partial Regex LetListRegex();

    [GeneratedRegex(@"^(let\s+\w+\s*=\s*)?(?<table>\w+)$")]
    private static partial Regex TableStartRegex();

    [GeneratedRegex(@"^extend\s+(?<alias>\w+)\s*=\s*(?<column>tostring\(customDimensions\.\w+\))$")]
    private static partial Regex ExtendAliasRegex();

    [GeneratedRegex(@"^(tostring\()?customDimensions\.(?<key>\w+)\)?$")]
    private static partial Regex DimensionRegex();

    [GeneratedRegex(@"^(?<column>\S+) in \((?:(?<list>\w+)|dynamic\(\[(?<items>[^\]]*)\]\))\)$")]
    private static partial Regex InListRegex();

    [GeneratedRegex(@"^isnotempty\((?<column>[^()]+|tostring\([^()]+\))\)$")]
    private static partial Regex IsNotEmptyRegex();

    [GeneratedRegex(@"^(?<column>\S+) matches regex @""(?<regex>(?:[^""]|"""")*)""$")]
    private static partial Regex MatchesRegexRegex();

    [GeneratedRegex(@"^(?<column>\S+) == (?<value>true|false)$")]
    private static partial Regex BoolRegex();

    [GeneratedRegex(@"^(?<column>\S+) (?<op>==|startswith|endswith|contains|has) ""(?<literal>[^""]*)""$")]
    private static partial Regex StringFilterRegex();
}
