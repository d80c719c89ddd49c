using System.CommandLine;
using System.Reflection;
using System.Text.RegularExpressions;
using OrderDistribution.LoadTool.Commands;
using Spectre.Console;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// What README.md and docs/ give to type exists: each order-load command and option (against the tool's own command
/// tree), each benchmark mode, each option of a script or .ci/run, each app setting (against the options types and
/// their sections), and each component or run-file key written as <c>key: value</c>.
/// </summary>
public sealed partial class DocCommandTests
{
    [Fact]
    public void Every_order_load_command_and_option_the_docs_give_exists()
    {
        var root = LoadToolCommands.Build(AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(TextWriter.Null),
        }));
        var global = root.Options.Where(o => o.Recursive).SelectMany(Names).Concat(["--help", "-h"]).ToHashSet();

        var wrong = MarkdownDocs.Files.SelectMany(MarkdownDocs.Code).SelectMany(code =>
            LoadToolLine(code.Code, root) is not { } words
                ? []
                : Check(root, global, words).Select(problem => $"{code.Line}: {problem} in '{code.Code.Trim()}'"))
            .ToList();

        MarkdownDocs.AssertNone("order-load commands and options that do not exist", wrong);
    }

    [Fact]
    public void Every_benchmark_mode_the_docs_give_exists()
    {
        var program = Repo.Read("tests/OrderDistribution.Benchmarks/Program.cs");

        var wrong = MarkdownDocs.Files.SelectMany(MarkdownDocs.Code)
            .Select(code => (code.Line, Match: BenchmarkMode().Match(code.Code)))
            .Where(found => found.Match.Success
                && !program.Contains($"[\"{found.Match.Groups["mode"].Value}\"", StringComparison.Ordinal))
            .Select(found => $"{found.Line}: benchmark mode {found.Match.Groups["mode"].Value}")
            .ToList();

        MarkdownDocs.AssertNone("benchmark modes that do not exist", wrong);
    }

    [Fact]
    public void Every_script_option_the_docs_give_is_one_the_script_takes()
    {
        var wrong = MarkdownDocs.Files.SelectMany(MarkdownDocs.Code).SelectMany(code =>
            ScriptCall().Matches(code.Code).SelectMany(call =>
            {
                var script = call.Groups["script"].Value;
                var text = Repo.Exists(script) ? Repo.Read(script) : "";
                return Words(call.Groups["rest"].Value).TakeWhile(w => !w.StartsWith('#'))
                    .Where(w => w.StartsWith("--", StringComparison.Ordinal))
                    .Select(OptionOf)
                    .Where(option => !Regex.IsMatch(text, $@"(?<![\w-]){Regex.Escape(option)}(?![\w-])"))
                    .Select(option => $"{code.Line}: {script} takes no {option}");
            })).ToList();

        MarkdownDocs.AssertNone("script options that do not exist", wrong);
    }

    [Fact]
    public void Every_app_setting_the_docs_name_exists_or_is_a_renamed_one_the_apps_refuse()
    {
        var sections = typeof(OrderDistribution.Distributor.DistributorOptions).Assembly.GetReferencedAssemblies()
            .Where(a => a.Name!.StartsWith("OrderDistribution.", StringComparison.Ordinal))
            .Select(Assembly.Load)
            .Concat([typeof(OrderDistribution.Distributor.DistributorOptions).Assembly,
                typeof(OrderDistribution.Receiver.ReceiverOptions).Assembly])
            .Distinct()
            .SelectMany(a => a.GetTypes())
            .Select(t => (Type: t, Section: t.GetField("Section", BindingFlags.Public | BindingFlags.Static)))
            .Where(t => t.Section is { IsLiteral: true } && t.Section.FieldType == typeof(string))
            .ToDictionary(t => (string)t.Section!.GetRawConstantValue()!,
                t => t.Type.GetProperties().Select(p => p.Name).ToHashSet(StringComparer.Ordinal));
        var renamed = File.ReadLines(Repo.PathOf("src/OrderDistribution.ServiceDefaults/renamed-settings.tsv"))
            .Select(line => line.Split('\t')).Where(cells => cells is ["setting", _, ..]).Select(cells => cells[1])
            .ToHashSet(StringComparer.Ordinal);
        Assert.Contains("Messaging", sections.Keys);

        var wrong = MarkdownDocs.Files.SelectMany(MarkdownDocs.Text).SelectMany(line =>
            Setting().Matches(line.Text)
                .Where(m => sections.ContainsKey(m.Groups["section"].Value))
                .Where(m => !sections[m.Groups["section"].Value].Contains(m.Groups["key"].Value)
                    && !renamed.Contains($"{m.Groups["section"].Value}:{m.Groups["key"].Value}"))
                .Select(m => $"{line}: setting {m.Value}"))
            .ToList();

        MarkdownDocs.AssertNone("app settings that do not exist", wrong);
    }

    [Fact]
    public void Every_component_and_run_file_key_the_docs_give_is_in_a_file_Dapr_or_azd_reads()
    {
        string[] folders = ["components-pubsub", "components-bindings", "infra", "scripts/templates", "scripts/lib"];
        string[] runFiles = ["dapr.yaml", "dapr.bindings.yaml", "azure.yaml"];
        var read = string.Join('\n', folders
            .SelectMany(folder => Directory.EnumerateFiles(Repo.PathOf(folder), "*", SearchOption.AllDirectories))
            .Concat(runFiles.Select(Repo.PathOf))
            .SelectMany(File.ReadLines)
            .Select(line => line.TrimStart())
            .Where(line => !line.StartsWith('#') && !line.StartsWith("//", StringComparison.Ordinal))
            .Select(line => Regex.Replace(line, @"\s#\s.*$", "")));

        // Dapr's own metadata keys the apps read or write (contentType, rawPayload) are named in the docs as such.
        var sources = string.Join('\n',
            Directory.EnumerateFiles(Repo.PathOf("src"), "*.cs", SearchOption.AllDirectories).Select(File.ReadAllText));

        var wrong = MarkdownDocs.Files.SelectMany(MarkdownDocs.Code).Where(code => !code.Line.InCode)
            .Select(code => (code.Line, Match: ComponentKey().Match(code.Code)))
            .Where(found => found.Match.Success)
            .Select(found => (found.Line, Key: found.Match.Groups["key"].Value))
            .Where(found => !Regex.IsMatch(read, $@"(?:(?<![\w-])|(?<=%s)){found.Key}\s*:|name:\s*{found.Key}\b")
                && !sources.Contains($"\"{found.Key}\"", StringComparison.Ordinal))
            .Select(found => $"{found.Line}: key {found.Key}")
            .ToList();

        MarkdownDocs.AssertNone("component and run-file keys no file has", wrong);
    }

    /// <summary>
    /// The words after <c>order-load</c> or <c>...LoadTool --</c>, or of a span that starts with a command and an
    /// option.
    /// </summary>
    private static string[]? LoadToolLine(string code, RootCommand root)
    {
        var call = LoadToolCall().Match(code);
        if (call.Success)
        {
            return Words(call.Groups["rest"].Value);
        }

        var words = Words(code);
        return words.Length > 1 && words[1].TrimStart('[').StartsWith("--", StringComparison.Ordinal)
            && root.Subcommands.Any(c => c.Name == words[0])
                ? words
                : null;
    }

    /// <summary>The command (or each of a placeholder's alternatives) and every option after it.</summary>
    private static IEnumerable<string> Check(RootCommand root, HashSet<string> global, string[] words)
    {
        if (words.Length == 0 || words[0].StartsWith('<') || words[0].StartsWith('-') || words[0].StartsWith('['))
        {
            yield break;
        }

        if (root.Subcommands.FirstOrDefault(c => c.Name == words[0]) is not { } command)
        {
            yield return $"no command {words[0]}";
            yield break;
        }

        var scope = new List<Command> { command };
        if (command.Subcommands.Count > 0 && words.Length > 1 && !words[1].StartsWith('-'))
        {
            var names = words[1].Trim('<', '>', '[', ']').Split('|');
            foreach (var name in names.Where(n => command.Subcommands.All(c => c.Name != n)))
            {
                yield return $"no command {command.Name} {name}";
            }

            scope = [.. command.Subcommands.Where(c => names.Contains(c.Name))];
        }

        // Recursive options (--verbose) reach every subcommand.
        var options = scope.SelectMany(c => c.Options.SelectMany(Names))
            .Concat(command.Options.Where(o => o.Recursive).SelectMany(Names)).Concat(global).ToHashSet();
        var given = words.Skip(1).Where(w => w.TrimStart('[', '(').StartsWith("--", StringComparison.Ordinal));
        foreach (var option in given.Select(OptionOf).Where(o => !options.Contains(o)))
        {
            yield return $"{command.Name} takes no {option}";
        }
    }

    private static IEnumerable<string> Names(Option option) => option.Aliases.Prepend(option.Name);

    private static string OptionOf(string word) =>
        Regex.Match(word.TrimStart('[', '('), @"^--[\w-]*\w").Value;

    private static string[] Words(string text) =>
        text.Split([' ', '\t'], StringSplitOptions.RemoveEmptyEntries)
            .TakeWhile(w => w is not ("|" or "&&" or ";" or "#")).ToArray();

    [GeneratedRegex(@"(?:\border-load|OrderDistribution\.LoadTool(?:/\S*)?\s+--)\s+(?<rest>.*)$")]
    private static partial Regex LoadToolCall();

    [GeneratedRegex(@"tests/OrderDistribution\.Benchmarks\s+--\s+(?:--console\s+)?(?<mode>[a-z][a-z-]+)")]
    private static partial Regex BenchmarkMode();

    [GeneratedRegex(@"(?<![\w./-])(?<script>scripts/[\w-]+\.sh|\.ci/run)\b(?<rest>[^|;&`]*)")]
    private static partial Regex ScriptCall();

    [GeneratedRegex(@"(?<![\w.])(?<section>[A-Z][a-z]\w*)(?::|__)(?<key>[A-Z]\w*)")]
    private static partial Regex Setting();

    /// <summary>A camelCase key and its value, as components, run files and Bicep write them.</summary>
    [GeneratedRegex(@"^(?<key>[a-z]+[A-Z][A-Za-z]*):\s*\S")]
    private static partial Regex ComponentKey();
}
