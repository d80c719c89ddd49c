using System.Globalization;
using System.Text.Json.Nodes;

namespace OrderDistribution.Deployment.Tests;

/// <summary>A Dapr component of the Container Apps environment as deployed.</summary>
internal sealed record DeployedComponent(JsonObject Resource)
{
    public string Name => InfraSnapshot.LastSegment(Resource["name"]!.GetValue<string>());

    public string ComponentType => Resource["properties"]!["componentType"]!.GetValue<string>();

    public IReadOnlyDictionary<string, string> Metadata =>
        Resource["properties"]!["metadata"]!.AsArray()
            .ToDictionary(m => m!["name"]!.GetValue<string>(), m => m!["value"]!.ToString());

    public IReadOnlyList<string> Scopes =>
        Resource["properties"]!["scopes"]!.AsArray().Select(s => s!.GetValue<string>()).ToList();

    public int IntMetadata(string key) => int.Parse(Metadata[key], CultureInfo.InvariantCulture);
}
