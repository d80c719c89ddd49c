namespace OrderDistribution.RealParts.Tests;

/// <summary>The ports daprd listens on, as it sees them (inside its container, or on the host).</summary>
internal sealed record SidecarPorts(int Http, int Grpc, int InternalGrpc, int Metrics)
{
    /// <summary>daprd's own defaults, used inside a container, where nothing else listens.</summary>
    public static SidecarPorts InContainer { get; } = new(3500, 50001, 50002, 9090);

    public static SidecarPorts Free() =>
        new(Azurite.FreePort(), Azurite.FreePort(), Azurite.FreePort(), Azurite.FreePort());
}
