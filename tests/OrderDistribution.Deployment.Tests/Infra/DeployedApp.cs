using System.Text.Json.Nodes;

namespace OrderDistribution.Deployment.Tests;

/// <summary>A container app as deployed.</summary>
internal sealed record DeployedApp(JsonObject Resource)
{
    public string Name => Resource["name"]!.GetValue<string>();

    public JsonObject Configuration => Resource["properties"]!["configuration"]!.AsObject();

    public JsonObject Container => Resource["properties"]!["template"]!["containers"]!.AsArray().Single()!.AsObject();

    /// <summary>Environment variables: value, or "secretref:NAME".</summary>
    public IReadOnlyDictionary<string, string> Env => Container["env"]!.AsArray().ToDictionary(
        e => e!["name"]!.GetValue<string>(),
        e => e!["value"]?.ToString() ?? $"secretref:{e!["secretRef"]}");

    public JsonObject ScaleRule =>
        Resource["properties"]!["template"]!["scale"]!["rules"]!.AsArray().Single()!["custom"]!.AsObject();

    public IReadOnlyList<string> UserAssignedIdentities =>
        Resource["identity"]!["userAssignedIdentities"]!.AsObject().Select(i => InfraSnapshot.LastSegment(i.Key))
            .ToList();
}
