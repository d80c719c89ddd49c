using System.Globalization;
using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>What infra/ deploys, read from the Bicep source.</summary>
internal static class BicepFacts
{
    public const string Main = "infra/main.bicep";
    public const string DaprComponents = "infra/modules/dapr-components.bicep";
    public const string ContainerApp = "infra/modules/container-app.bicep";
    public const string ModelParam = "daprComponentsModel";

    public static BicepFile MainFile() => BicepFile.Load(Main);

    public static IReadOnlyList<AzureComponent> Components()
    {
        var file = BicepFile.Load(DaprComponents);
        return file.Resources("Microsoft.App/managedEnvironments/daprComponents@").Select(block =>
        {
            var name = BicepFile.StringLiteral(block["name"] ?? "")
                ?? throw new Xunit.Sdk.XunitException($"{block.Symbol}: name is not a literal");
            var properties = block["properties"] ?? "";
            var metadata = new Dictionary<string, string>();
            var metadataExpression = BicepFile.PropertyPath(properties, "metadata") ?? "[]";
            foreach (var entry in MetadataEntries(metadataExpression))
            {
                var entryProperties = BicepFile.ObjectProperties(entry);
                var key = BicepFile.StringLiteral(entryProperties["name"]) ?? "";
                var value = entryProperties["value"];
                metadata[key] = BicepFile.StringLiteral(value) ?? value;
            }

            return new AzureComponent(
                file,
                name,
                BicepFile.StringLiteral(BicepFile.PropertyPath(properties, "componentType") ?? "") ?? "",
                metadata,
                BicepFile.PropertyPath(properties, "scopes") ?? "");
        }).ToList();
    }

    public static AzureComponent Component(string name) =>
        Components().SingleOrDefault(c => c.Name == name)
        ?? throw new Xunit.Sdk.XunitException($"{DaprComponents} declares no Dapr component {name}");

    /// <summary>Queues main.bicep passes to the Service Bus module.</summary>
    public static IReadOnlyList<string> Queues()
    {
        var main = MainFile();
        var module = main.Modules("modules/servicebus.bicep").Single();
        return BicepFile.ArrayItems(module.ModuleParams["queueNames"]).Select(item => ResolveMember(main, item)).ToList();
    }

    /// <summary>Blob containers main.bicep passes to the storage module.</summary>
    public static IReadOnlyList<string> BlobContainers()
    {
        var main = MainFile();
        return main.ResolveStrings(main.Modules("modules/storage.bicep").Single().ModuleParams["containerNames"]);
    }

    /// <summary>The byte budget main.bicep gives the apps for a Service Bus tier.</summary>
    public static int MaxBulkPubBytes(string sku) =>
        BicepArithmetic.Evaluate(MainFile(), "maxBulkPubBytes", new Dictionary<string, string> { ["serviceBusSku"] = sku });

    /// <summary>The smallest budget over the tiers (Standard): what any app default must fit.</summary>
    public static int MaxBulkPubBytes() => Skus.Min(MaxBulkPubBytes);

    public static readonly string[] Skus = ["Standard", "Premium"];

    /// <summary>The container-app module calls of main.bicep.</summary>
    public static IReadOnlyList<BicepBlock> ContainerApps() => MainFile().Modules("modules/container-app.bicep");

    /// <summary>A string literal, a var holding one, or VAR.KEY of an object var.</summary>
    public static string ResolveMember(BicepFile file, string expression)
    {
        var direct = file.ResolveString(expression);
        if (direct is not null)
        {
            return direct;
        }

        var parts = expression.Trim().Split('.');
        Assert.True(parts.Length == 2, $"{file.Relative}: cannot resolve '{expression}'");
        var properties = BicepFile.ObjectProperties(file.Var(parts[0]));
        return file.ResolveString(properties[parts[1]])
            ?? throw new Xunit.Sdk.XunitException($"{file.Relative}: '{expression}' is not a string");
    }

    /// <summary>Entries of a metadata array, also when it is concat([...], otherVar).</summary>
    private static IEnumerable<string> MetadataEntries(string expression)
    {
        var e = expression.Trim();
        if (e.StartsWith("concat(", StringComparison.Ordinal))
        {
            var file = BicepFile.Load(DaprComponents);
            foreach (var part in BicepFile.ArrayItems("[" + e["concat(".Length..^1] + "]"))
            {
                var array = part.TrimStart().StartsWith('[') ? part : file.Var(part.Trim());
                foreach (var item in BicepFile.ArrayItems(array))
                {
                    yield return item;
                }
            }
        }
        else
        {
            foreach (var item in BicepFile.ArrayItems(e))
            {
                yield return item;
            }
        }
    }
}

/// <summary>A Dapr component of the Container Apps environment as declared in Bicep.</summary>
internal sealed partial record AzureComponent(
    BicepFile File,
    string Name,
    string ComponentType,
    IReadOnlyDictionary<string, string> Metadata,
    string ScopesExpression)
{
    /// <summary>The scopes the component gets when the model parameter has the given value.</summary>
    public IReadOnlyList<string> ScopesWhen(string model)
    {
        var match = ScopeRegex().Match(ScopesExpression);
        Assert.True(match.Success, $"{Name}: scopes '{ScopesExpression}' is not a scope variable (or one of its keys)");
        var ternary = BicepFile.Ternary(File.Var(match.Groups["var"].Value))
            ?? throw new Xunit.Sdk.XunitException($"{Name}: {match.Groups["var"].Value} does not depend on the model");
        var condition = ConditionRegex().Match(ternary.Condition);
        Assert.True(condition.Success, $"{Name}: '{ternary.Condition}' does not test {BicepFacts.ModelParam}");
        var branch = condition.Groups["model"].Value == model ? ternary.WhenTrue : ternary.WhenFalse;
        if (match.Groups["key"].Success)
        {
            branch = BicepFile.ObjectProperties(branch)[match.Groups["key"].Value];
        }

        return File.ResolveStrings(branch);
    }

    [GeneratedRegex(@"^(?<var>\w+)(\.(?<key>\w+))?$")]
    private static partial Regex ScopeRegex();

    [GeneratedRegex(@"^daprComponentsModel\s*==\s*'(?<model>\w+)'$")]
    private static partial Regex ConditionRegex();
}

/// <summary>
/// Evaluates integer vars and params of a Bicep file: literals, + - * / (integer division), parentheses,
/// names of vars or params (their defaults), and ternaries on a string param given a value.
/// </summary>
internal static class BicepArithmetic
{
    public static int Evaluate(BicepFile file, string name, IReadOnlyDictionary<string, string>? given = null)
    {
        given ??= new Dictionary<string, string>();
        var expression = Regex.IsMatch(file.Text, $@"^var\s+{name}\s*=", RegexOptions.Multiline)
            ? file.Var(name)
            : file.ParamDefault(name) ?? throw new Xunit.Sdk.XunitException($"{file.Relative}: {name} is neither a var nor a param with a default");
        return EvaluateExpression(file, expression, given);
    }

    public static int EvaluateExpression(BicepFile file, string expression, IReadOnlyDictionary<string, string> given)
    {
        if (BicepFile.Ternary(expression) is { } ternary)
        {
            var condition = Regex.Match(ternary.Condition, @"^(?<name>\w+)\s*==\s*'(?<value>[^']*)'$");
            Assert.True(condition.Success, $"{file.Relative}: cannot evaluate condition '{ternary.Condition}'");
            var actual = given.TryGetValue(condition.Groups["name"].Value, out var value)
                ? value
                : BicepFile.StringLiteral(file.ParamDefault(condition.Groups["name"].Value) ?? "")
                  ?? throw new Xunit.Sdk.XunitException($"{file.Relative}: no value for {condition.Groups["name"].Value}");
            return EvaluateExpression(file, actual == condition.Groups["value"].Value ? ternary.WhenTrue : ternary.WhenFalse, given);
        }

        var tokens = Regex.Matches(expression, @"\d+|\w+|[-+*/()]").Select(m => m.Value).ToList();
        var position = 0;
        var result = Sum();
        Assert.True(position == tokens.Count, $"{file.Relative}: cannot evaluate '{expression}'");
        return result;

        int Sum()
        {
            var value = Product();
            while (position < tokens.Count && tokens[position] is "+" or "-")
            {
                var op = tokens[position++];
                var right = Product();
                value = op == "+" ? value + right : value - right;
            }

            return value;
        }

        int Product()
        {
            var value = Atom();
            while (position < tokens.Count && tokens[position] is "*" or "/")
            {
                var op = tokens[position++];
                var right = Atom();
                value = op == "*" ? value * right : value / right;
            }

            return value;
        }

        int Atom()
        {
            var token = tokens[position++];
            if (token == "(")
            {
                var value = Sum();
                Assert.Equal(")", tokens[position++]);
                return value;
            }

            return int.TryParse(token, NumberStyles.None, CultureInfo.InvariantCulture, out var number)
                ? number
                : Evaluate(file, token, given);
        }
    }
}
