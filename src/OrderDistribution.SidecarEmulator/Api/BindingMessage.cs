namespace OrderDistribution.SidecarEmulator.Api;

/// <summary>
/// One output binding call as the binding received it: the data daprd hands on and the metadata it builds.
/// </summary>
public sealed record BindingMessage(string Binding, byte[] Data, IReadOnlyDictionary<string, string> Metadata);
