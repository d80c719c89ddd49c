namespace OrderDistribution.TrioHarness;

/// <summary>Items of one kind and their JSON bytes.</summary>
public readonly record struct TelemetryKind(long Items, long Bytes)
{
    public static TelemetryKind operator +(TelemetryKind a, TelemetryKind b) =>
        new(a.Items + b.Items, a.Bytes + b.Bytes);

    public static TelemetryKind operator -(TelemetryKind a, TelemetryKind b) =>
        new(a.Items - b.Items, a.Bytes - b.Bytes);
}
