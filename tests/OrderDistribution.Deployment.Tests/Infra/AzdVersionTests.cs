using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// What azd itself reads from the repository: the minimum azd (azure.yaml requiredVersions) and, since azd packages
/// the services at once, where each service's build writes.
/// </summary>
public partial class AzdVersionTests
{
    /// <summary>
    /// The first azd that deploys each app with infra/&lt;service&gt;.bicepparam wherever it runs from
    /// (docs/azure.md, "Which azd and which Bicep").
    /// </summary>
    private const string MinimumAzd = "1.23.2";

    [Fact]
    public void Azure_yaml_requires_the_minimum_azd_and_the_docs_give_the_same()
    {
        var required = Yaml.LoadMapping(Repo.Read("azure.yaml")).Mapping("requiredVersions")?.Scalar("azd");

        Assert.Equal($">= {MinimumAzd}", required);
        Assert.Contains("`requiredVersions`", Repo.Read("docs/azure.md"), StringComparison.Ordinal);
        Assert.Contains($"azd {MinimumAzd} and later", Repo.Read("docs/azure.md"), StringComparison.Ordinal);
    }

    [Fact]
    public void Every_azd_version_the_docs_and_infra_say_works_is_one_azure_yaml_accepts()
    {
        var files = Directory.GetFiles(Repo.PathOf("infra"), "*.bicep*", SearchOption.AllDirectories)
            .Append(Repo.PathOf("docs/azure.md")).Append(Repo.PathOf("azure.yaml"));
        var claims = files.SelectMany(file => AzdClaimRegex().Matches(File.ReadAllText(file))
            .Select(m => (File: Path.GetRelativePath(Repo.Root, file), Claim: m.Value,
                Version: Version.Parse(m.Groups["version"].Value)))).ToList();

        Assert.Contains(claims, c => c.Version == Version.Parse(MinimumAzd));
        Assert.All(claims, c => Assert.True(c.Version >= Version.Parse(MinimumAzd),
            $"{c.File}: '{c.Claim}' names an azd older than azure.yaml's minimum {MinimumAzd}"));
    }

    [RequiresProgramFact("dotnet", "https://dotnet.microsoft.com/download")]
    public void No_two_services_azd_packages_at_once_build_into_the_same_folder()
    {
        // azd 1.25 and later publishes every service at once: `dotnet publish <project> -r linux-x64 -c Release
        // /t:PublishContainer -p:ContainerRepository=<project name>/<service>-<env> ...`. Every project each publish
        // builds (the service's own and the ones it references) must write its obj/ and bin/ where no other does.
        var services = Yaml.LoadMapping(Repo.Read("azure.yaml")).Mapping("services")!;
        var writers = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (key, value) in services.Children)
        {
            var service = key.ToString();
            var project = Directory.GetFiles(
                Repo.PathOf(((YamlDotNet.RepresentationModel.YamlMappingNode)value).Scalar("project")!), "*.csproj")
                .Single();
            foreach (var built in WithReferences(project))
            {
                var folders = Evaluate(built, $"order-distribution/{service}-fake");
                foreach (var folder in new[] { folders.Obj, folders.Bin })
                {
                    Assert.False(writers.TryGetValue(folder, out var other),
                        $"{service} and {other} both build {Path.GetFileName(built)} into {folder}");
                    writers[folder] = service;
                }
            }
        }

        Assert.Equal(services.Children.Count, writers.Values.Distinct().Count());
    }

    /// <summary>Where a project built with azd's publish arguments writes: its obj/ and bin/ folders.</summary>
    private static (string Obj, string Bin) Evaluate(string project, string containerRepository)
    {
        var (exitCode, output) = Repo.Run("dotnet", TimeSpan.FromSeconds(120), "msbuild", project,
            $"-p:ContainerRepository={containerRepository}", "-p:RuntimeIdentifier=linux-x64",
            "-p:Configuration=Release", "-getProperty:BaseIntermediateOutputPath", "-getProperty:OutputPath");
        Assert.True(exitCode == 0, output);
        var properties = JsonNode.Parse(output)!["Properties"]!;
        string Full(string name) =>
            Path.GetFullPath(properties[name]!.GetValue<string>(), Path.GetDirectoryName(project)!);
        return (Full("BaseIntermediateOutputPath"), Full("OutputPath"));
    }

    /// <summary>A project and every project it references, directly or not.</summary>
    private static HashSet<string> WithReferences(string project)
    {
        var all = new HashSet<string>(StringComparer.Ordinal);
        var pending = new Stack<string>([Path.GetFullPath(project)]);
        while (pending.TryPop(out var next))
        {
            if (all.Add(next))
            {
                foreach (Match reference in ProjectReferenceRegex().Matches(File.ReadAllText(next)))
                {
                    pending.Push(Path.GetFullPath(reference.Groups["path"].Value.Replace('\\', '/'),
                        Path.GetDirectoryName(next)!));
                }
            }
        }

        return all;
    }

    [GeneratedRegex(@"azd (?<version>\d+\.\d+(\.\d+)?)( and later| or later|\+)")]
    private static partial Regex AzdClaimRegex();

    [GeneratedRegex(@"<ProjectReference Include=""(?<path>[^""]+)""")]
    private static partial Regex ProjectReferenceRegex();
}
