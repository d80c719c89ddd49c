using System.Text.Json;

namespace OrderDistribution.TestSupport;

/// <summary>One request the fake sidecar took.</summary>
public sealed record SidecarRequest(
    string Path, IReadOnlyDictionary<string, string> Query, IReadOnlyDictionary<string, string> Headers, byte[] Body)
{
    public JsonElement Json => JsonDocument.Parse(Body).RootElement;
}
