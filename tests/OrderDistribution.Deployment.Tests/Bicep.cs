using System.Text;
using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Just enough Bicep reading for consistency checks: declarations, bodies of resources and modules,
/// properties, and literal values (strings, arrays, objects, ternaries on a parameter): what the source
/// says before ARM evaluates it. BicepCompiler gives the compiled ARM JSON where that serves.
/// </summary>
internal sealed partial class BicepFile
{
    private BicepFile(string relative, string text)
    {
        Relative = relative;
        Text = StripComments(text);
    }

    public string Relative { get; }

    /// <summary>The source without comments.</summary>
    public string Text { get; }

    public static BicepFile Load(string relative) => new(relative, Repo.Read(relative));

    public IReadOnlyList<string> Outputs => OutputRegex().Matches(Text).Select(m => m.Groups["name"].Value).ToList();

    /// <summary>The expression of var NAME (up to the end of its line at nesting depth 0).</summary>
    public string Var(string name)
    {
        var match = Regex.Match(Text, $@"^var\s+{Regex.Escape(name)}\s*=\s*", RegexOptions.Multiline);
        Assert.True(match.Success, $"{Relative} declares no var {name}");
        return ExpressionAt(Text, match.Index + match.Length);
    }

    public string? ParamDefault(string name)
    {
        var match = Regex.Match(Text, $@"^param\s+{Regex.Escape(name)}\s+\w+\s*=\s*", RegexOptions.Multiline);
        return match.Success ? ExpressionAt(Text, match.Index + match.Length) : null;
    }

    /// <summary>resource SYMBOL 'TYPE@VERSION' ... = { body }.</summary>
    public IReadOnlyList<BicepBlock> Resources(string typePrefix) =>
        Blocks("resource", typePrefix).Where(b => !b.Header.Contains(" existing", StringComparison.Ordinal)).ToList();

    /// <summary>module SYMBOL 'PATH' = [for ...:] { body }.</summary>
    public IReadOnlyList<BicepBlock> Modules(string? path = null) => Blocks("module", path ?? "").ToList();

    private IEnumerable<BicepBlock> Blocks(string keyword, string quotedPrefix)
    {
        var regex = new Regex($@"^{keyword}\s+(?<symbol>\w+)\s+'(?<target>{Regex.Escape(quotedPrefix)}[^']*)'[^\n]*?=", RegexOptions.Multiline);
        foreach (Match match in regex.Matches(Text))
        {
            var open = Text.IndexOf('{', match.Index + match.Length);
            var close = MatchingClose(Text, open);
            yield return new BicepBlock(
                match.Groups["symbol"].Value,
                match.Groups["target"].Value,
                Text[match.Index..open],
                Text[(open + 1)..close]);
        }
    }

    /// <summary>Value expression of a property KEY at the top level of a body.</summary>
    public static string? Property(string body, string key)
    {
        var depth = 0;
        for (var i = 0; i < body.Length; i++)
        {
            var c = body[i];
            if (c == '\'')
            {
                i = SkipString(body, i) - 1;
                continue;
            }

            if (c is '{' or '[' or '(')
            {
                depth++;
            }
            else if (c is '}' or ']' or ')')
            {
                depth--;
            }
            else if (depth == 0 && (i == 0 || !IsIdentifierChar(body[i - 1]))
                && string.CompareOrdinal(body, i, key, 0, key.Length) == 0)
            {
                var j = i + key.Length;
                while (j < body.Length && body[j] == ' ')
                {
                    j++;
                }

                if (j < body.Length && body[j] == ':')
                {
                    return ExpressionAt(body, j + 1);
                }
            }
        }

        return null;
    }

    /// <summary>Walks a dotted path of properties: Path(body, "properties", "scopes").</summary>
    public static string? PropertyPath(string body, params string[] keys)
    {
        string? current = body;
        foreach (var key in keys)
        {
            if (current is null)
            {
                return null;
            }

            var value = Property(current.Trim().TrimStart('{').TrimEnd('}'), key);
            current = value;
        }

        return current;
    }

    /// <summary>'text' to text; null when the expression is not a plain string literal.</summary>
    public static string? StringLiteral(string expression)
    {
        var e = expression.Trim();
        if (e.Length < 2 || e[0] != '\'' || SkipString(e, 0) != e.Length || e.Contains("${", StringComparison.Ordinal))
        {
            return null;
        }

        return e[1..^1].Replace("\\'", "'", StringComparison.Ordinal);
    }

    /// <summary>Items of an array literal [ a, b ] or [ a \n b ].</summary>
    public static IReadOnlyList<string> ArrayItems(string expression)
    {
        var e = expression.Trim();
        Assert.True(e.StartsWith('[') && e.EndsWith(']'), $"not an array literal: {e}");
        return SplitTopLevel(e[1..^1]);
    }

    /// <summary>Properties of an object literal { key: value, ... }.</summary>
    public static IReadOnlyDictionary<string, string> ObjectProperties(string expression)
    {
        var e = expression.Trim();
        Assert.True(e.StartsWith('{') && e.EndsWith('}'), $"not an object literal: {e}");
        var result = new Dictionary<string, string>();
        foreach (var item in SplitTopLevel(e[1..^1]))
        {
            var colon = item.IndexOf(':', StringComparison.Ordinal);
            var key = item[..colon].Trim().Trim('\'');
            result[key] = item[(colon + 1)..].Trim();
        }

        return result;
    }

    /// <summary>CONDITION ? WHEN_TRUE : WHEN_FALSE at the top level; null when not a ternary.</summary>
    public static (string Condition, string WhenTrue, string WhenFalse)? Ternary(string expression)
    {
        var e = expression.Trim();
        int question = -1, colon = -1, depth = 0;
        for (var i = 0; i < e.Length; i++)
        {
            var c = e[i];
            if (c == '\'')
            {
                i = SkipString(e, i) - 1;
            }
            else if (c is '{' or '[' or '(')
            {
                depth++;
            }
            else if (c is '}' or ']' or ')')
            {
                depth--;
            }
            else if (depth == 0 && c == '?' && question < 0)
            {
                question = i;
            }
            else if (depth == 0 && c == ':' && question >= 0)
            {
                colon = i;
                break;
            }
        }

        return question < 0 || colon < 0
            ? null
            : (e[..question].Trim(), e[(question + 1)..colon].Trim(), e[(colon + 1)..].Trim());
    }

    /// <summary>Evaluates a string literal, or a var holding one, to its text.</summary>
    public string? ResolveString(string expression)
    {
        var literal = StringLiteral(expression);
        if (literal is not null)
        {
            return literal;
        }

        var name = expression.Trim();
        return IdentifierRegex().IsMatch(name) && Regex.IsMatch(Text, $@"^var\s+{name}\s*=", RegexOptions.Multiline)
            ? ResolveString(Var(name))
            : null;
    }

    /// <summary>Evaluates an array of string literals or vars holding them.</summary>
    public IReadOnlyList<string> ResolveStrings(string expression) =>
        ArrayItems(expression).Select(item => ResolveString(item)
            ?? throw new Xunit.Sdk.XunitException($"{Relative}: '{item}' is not a string")).ToList();

    private static string ExpressionAt(string text, int start)
    {
        var depth = 0;
        var i = start;
        for (; i < text.Length; i++)
        {
            var c = text[i];
            if (c == '\'')
            {
                i = SkipString(text, i) - 1;
            }
            else if (c is '{' or '[' or '(')
            {
                depth++;
            }
            else if (c is '}' or ']' or ')')
            {
                if (depth == 0)
                {
                    break;
                }

                depth--;
            }
            else if (depth == 0 && (c == '\n' || c == ','))
            {
                break;
            }
        }

        return text[start..i].Trim();
    }

    private static List<string> SplitTopLevel(string inner)
    {
        var items = new List<string>();
        var depth = 0;
        var current = new StringBuilder();
        for (var i = 0; i < inner.Length; i++)
        {
            var c = inner[i];
            if (c == '\'')
            {
                var end = SkipString(inner, i);
                current.Append(inner, i, end - i);
                i = end - 1;
                continue;
            }

            if (c is '{' or '[' or '(')
            {
                depth++;
            }
            else if (c is '}' or ']' or ')')
            {
                depth--;
            }

            if (depth == 0 && (c == '\n' || c == ','))
            {
                Flush();
            }
            else
            {
                current.Append(c);
            }
        }

        Flush();
        return items;

        void Flush()
        {
            var item = current.ToString().Trim();
            if (item.Length > 0)
            {
                items.Add(item);
            }

            current.Clear();
        }
    }

    private static int MatchingClose(string text, int open)
    {
        var depth = 0;
        for (var i = open; i < text.Length; i++)
        {
            var c = text[i];
            if (c == '\'')
            {
                i = SkipString(text, i) - 1;
            }
            else if (c is '{' or '[' or '(')
            {
                depth++;
            }
            else if (c is '}' or ']' or ')')
            {
                depth--;
                if (depth == 0)
                {
                    return i;
                }
            }
        }

        throw new Xunit.Sdk.XunitException($"unbalanced braces from offset {open}");
    }

    /// <summary>Index just after the string literal that starts at <paramref name="start"/> (a quote).</summary>
    private static int SkipString(string text, int start)
    {
        var i = start + 1;
        while (i < text.Length)
        {
            var c = text[i];
            if (c == '\\')
            {
                i += 2;
            }
            else if (c == '\'')
            {
                return i + 1;
            }
            else if (c == '$' && i + 1 < text.Length && text[i + 1] == '{')
            {
                // Interpolation: skip to its matching brace, strings inside included.
                var depth = 0;
                for (i++; i < text.Length; i++)
                {
                    if (text[i] == '\'')
                    {
                        i = SkipString(text, i) - 1;
                    }
                    else if (text[i] == '{')
                    {
                        depth++;
                    }
                    else if (text[i] == '}' && --depth == 0)
                    {
                        break;
                    }
                }

                i++;
            }
            else
            {
                i++;
            }
        }

        return text.Length;
    }

    private static string StripComments(string text)
    {
        var result = new StringBuilder(text.Length);
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '\'')
            {
                var end = SkipString(text, i);
                result.Append(text, i, end - i);
                i = end - 1;
            }
            else if (text[i] == '/' && i + 1 < text.Length && text[i + 1] == '/')
            {
                while (i < text.Length && text[i] != '\n')
                {
                    i++;
                }

                result.Append('\n');
            }
            else if (text[i] == '/' && i + 1 < text.Length && text[i + 1] == '*')
            {
                var end = text.IndexOf("*/", i + 2, StringComparison.Ordinal);
                i = end < 0 ? text.Length : end + 1;
            }
            else
            {
                result.Append(text[i]);
            }
        }

        return result.ToString();
    }

    private static bool IsIdentifierChar(char c) => char.IsLetterOrDigit(c) || c == '_';

    [GeneratedRegex(@"^output\s+(?<name>\w+)\s", RegexOptions.Multiline)]
    private static partial Regex OutputRegex();

    [GeneratedRegex(@"^[A-Za-z_]\w*$")]
    private static partial Regex IdentifierRegex();
}

/// <summary>A resource or module declaration: symbol, type or path, header text and body (inside the braces).</summary>
internal sealed record BicepBlock(string Symbol, string Target, string Header, string Body)
{
    public string? this[string key] => BicepFile.Property(Body, key);

    /// <summary>The params object of a module, as property name to expression.</summary>
    public IReadOnlyDictionary<string, string> ModuleParams =>
        this["params"] is { } p ? BicepFile.ObjectProperties(p) : new Dictionary<string, string>();
}
