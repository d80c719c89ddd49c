using Xunit;
using YamlDotNet.RepresentationModel;

namespace OrderDistribution.TestSupport.Components;

/// <summary>Reading YAML files as mappings, sequences and scalars.</summary>
public static class Yaml
{
    public static YamlMappingNode LoadMapping(string text)
    {
        var stream = new YamlStream();
        stream.Load(new StringReader(text));
        return Assert.IsType<YamlMappingNode>(stream.Documents.Single().RootNode);
    }

    public static YamlNode? Child(this YamlMappingNode node, string key) =>
        node.Children.TryGetValue(new YamlScalarNode(key), out var child) ? child : null;

    public static string? Scalar(this YamlMappingNode node, string key) => (node.Child(key) as YamlScalarNode)?.Value;

    public static YamlMappingNode? Mapping(this YamlMappingNode node, string key) => node.Child(key) as YamlMappingNode;

    public static IReadOnlyList<YamlNode> Sequence(this YamlMappingNode node, string key) =>
        node.Child(key) is YamlSequenceNode sequence ? sequence.Children.ToList() : [];

    public static IReadOnlyList<string> Strings(this YamlMappingNode node, string key) =>
        node.Sequence(key).OfType<YamlScalarNode>().Select(s => s.Value ?? "").ToList();

    public static Dictionary<string, string> ScalarMap(this YamlMappingNode? node) =>
        node is null
            ? []
            : node.Children.ToDictionary(
                kv => ((YamlScalarNode)kv.Key).Value ?? "",
                kv => (kv.Value as YamlScalarNode)?.Value ?? "");
}
