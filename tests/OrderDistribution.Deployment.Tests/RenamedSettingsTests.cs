using System.Text.RegularExpressions;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The settings renamed for one vocabulary: the apps, scripts and azd hook refuse the old names, and no file
/// that Dapr, azd, Bicep, a script or a reader of the docs takes still sets or shows one. A line may name an old
/// setting only beside the one that replaced it (where it is refused or listed as renamed).
/// </summary>
public sealed partial class RenamedSettingsTests
{
    /// <summary>Old name (a pattern) and what replaced it.</summary>
    public static readonly TheoryData<string, string> Renamed = new()
    {
        { @"Messaging(__|:)PubSubMode", "Messaging:Model (bindings, pubsub-single, pubsub-bulk)" },
        { @"Messaging(__|:)DeliveryDeadline", "Messaging:RequestDeadline" },
        { @"\bDAPR_COMPONENTS_MODEL\b", "MESSAGING_MODEL" },
        { @"\bDAPR_PUBSUB_MODEL\b", "MESSAGING_MODEL" },
        { @"\bdaprComponentsModel\b", "messagingModel" },
        { @"\bdaprPubSubModel\b", "messagingModel" },
        { @"\bDELIVERY_DEADLINE_SECONDS\b", "REQUEST_DEADLINE_SECONDS" },
        { @"\bdeliveryDeadlineSeconds\b", "requestDeadlineSeconds" },
        { @"Distributor(__|:)(Ingress|Express|Standard)Topic\b",
            "Distributor:IngressQueue, ExpressQueue, StandardQueue" },
        { @"--pubsub-mode\b", "--model pubsub-bulk|pubsub-single" },
        { @"--model (pubsub|bulk|single|binding)(?![\w-])", "--model bindings|pubsub-single|pubsub-bulk" },
        { @"run-local\.sh( --render-only| --missing-consumers)? (pubsub|bindings) (bulk|single)\b",
            "scripts/run-local.sh bindings|pubsub-single|pubsub-bulk" },
        { @"run-local\.sh( --render-only| --missing-consumers)? pubsub(?![\w-])",
            "scripts/run-local.sh pubsub-bulk|pubsub-single" },
    };

    [Theory]
    [MemberData(nameof(Renamed))]
    public void No_file_sets_or_shows_a_renamed_setting(string old, string replacement)
    {
        var pattern = new Regex(old);
        var found = FilesThatSetSettings()
            .SelectMany(file => File.ReadLines(Repo.PathOf(file)).Select((line, i) => (file, line, number: i + 1)))
            .Where(l => pattern.IsMatch(l.line) && !NamesTheReplacement(l.line))
            .Select(l => $"{l.file}:{l.number}: {l.line.Trim()}")
            .ToList();

        Assert.True(found.Count == 0, $"still set or shown (now {replacement}):\n{string.Join('\n', found)}");
    }

    [Theory]
    [InlineData("scripts/run-local.sh", RenamedSettings.Argument)]
    [InlineData("scripts/azure-burst.sh", RenamedSettings.Variable)]
    [InlineData("scripts/azd-env-sync.sh", RenamedSettings.Variable)]
    public void Each_script_refuses_renamed_names_from_the_one_table_not_a_list_of_its_own(string script, string kind)
    {
        var code = string.Join('\n',
            File.ReadLines(Repo.PathOf(script)).Where(line => !line.TrimStart().StartsWith('#')));

        Assert.Contains("renamed-settings.tsv", code, StringComparison.Ordinal);
        Assert.Matches($@"==\s*""?{kind}\b", code);
        Assert.All(RenamedSettings.All.Where(row => row.Kind == kind),
            row => Assert.DoesNotContain(row.Old, code, StringComparison.Ordinal));
    }

    /// <summary>Dapr's run files and components, azd's files, Bicep, the scripts, the README and the docs.</summary>
    private static IEnumerable<string> FilesThatSetSettings()
    {
        string[] roots = ["README.md", "dapr.yaml", "dapr.bindings.yaml", "azure.yaml", ".env.template"];
        foreach (var file in roots)
        {
            yield return file;
        }

        foreach (var (folder, pattern) in new[] { ("components-pubsub", "*.yaml"), ("components-bindings", "*.yaml"),
            ("infra", "*.bicep"), ("infra", "*.json"), ("scripts", "*.sh"), ("scripts", "*.kql"), ("docs", "*.md") })
        {
            foreach (var path in Directory.EnumerateFiles(Repo.PathOf(folder), pattern, SearchOption.AllDirectories))
            {
                yield return Path.GetRelativePath(Repo.Root, path);
            }
        }
    }

    /// <summary>A line that names the new setting or says the old one is refused or renamed.</summary>
    private static bool NamesTheReplacement(string line) => Replacement().IsMatch(line);

    [GeneratedRegex(
        @"MESSAGING_MODEL|Messaging(__|:)Model|messagingModel|REQUEST_DEADLINE_SECONDS|RequestDeadline" +
        @"|requestDeadlineSeconds|(Ingress|Express|Standard)Queue|pubsub-(bulk|single)|no longer read|renamed")]
    private static partial Regex Replacement();
}
