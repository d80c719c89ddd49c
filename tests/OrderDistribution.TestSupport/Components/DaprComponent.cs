using Xunit;
using YamlDotNet.RepresentationModel;

namespace OrderDistribution.TestSupport.Components;

/// <summary>A Dapr component file (kind: Component) from a local components folder of the repository.</summary>
public sealed record DaprComponent(
    string File,
    string Name,
    string Type,
    IReadOnlyDictionary<string, string> Metadata,
    IReadOnlyList<string> Scopes)
{
    /// <param name="folder">Relative to the repository's root, or a full path.</param>
    public static IReadOnlyList<DaprComponent> LoadFolder(string folder)
    {
        var path = System.IO.Path.GetFullPath(System.IO.Path.Combine(RepositoryRoot.Path, folder));
        Assert.True(Directory.Exists(path), $"{folder} does not exist");
        var components = new List<DaprComponent>();
        foreach (var file in Directory.EnumerateFiles(path, "*.yaml").Order(StringComparer.Ordinal))
        {
            var root = Yaml.LoadMapping(System.IO.File.ReadAllText(file));
            if (root.Scalar("kind") != "Component")
            {
                continue;
            }

            var spec = root.Mapping("spec") ?? new YamlMappingNode();
            var metadata = spec.Sequence("metadata").Cast<YamlMappingNode>()
                .ToDictionary(m => m.Scalar("name") ?? "", m => m.Scalar("value") ?? "");
            components.Add(new DaprComponent(
                System.IO.Path.GetFileName(file),
                root.Mapping("metadata")?.Scalar("name") ?? "",
                spec.Scalar("type") ?? "",
                metadata,
                root.Strings("scopes")));
        }

        return components;
    }

    public static DaprComponent Named(IReadOnlyList<DaprComponent> components, string name, string folder) =>
        components.SingleOrDefault(c => c.Name == name)
        ?? throw new Xunit.Sdk.XunitException($"{folder} has no component named {name}");

    public string? this[string key] => Metadata.TryGetValue(key, out var value) ? value : null;
}
