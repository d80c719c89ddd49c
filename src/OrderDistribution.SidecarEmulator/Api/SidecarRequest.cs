using System.Text.Json;

namespace OrderDistribution.SidecarEmulator.Api;

/// <summary>
/// One request the emulator took on the sidecar's HTTP API, recorded (<see
/// cref="EmulatedSidecarOptions.RecordRequests"/>).
/// </summary>
public sealed record SidecarRequest(
    string Path, IReadOnlyDictionary<string, string> Query, IReadOnlyDictionary<string, string> Headers, byte[] Body)
{
    public JsonElement Json => JsonDocument.Parse(Body).RootElement;
}
