namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// What scripts/azure-burst.sh read from Azure about a burst, kept in its result: each app's replicas at the scheduled
/// instant and at the end ("app=count ...", "?" for a count not read), whether the apps ran with tiered compilation
/// (on, off or mixed), each app's cost from its replica metrics, and the telemetry's cost in Log Analytics.
/// </summary>
public sealed record AzureFacts(
    string ReplicasAtInstant, string ReplicasAtEnd, string TieredCompilation, IReadOnlyList<AppCost> Apps,
    TelemetryCost? Telemetry)
{
    /// <summary>
    /// Whether a burst with these facts compares with <paramref name="other"/>: same replicas and compilation.
    /// </summary>
    public bool StartedAlike(AzureFacts other) =>
        ReplicasKnown && ReplicasAtInstant == other.ReplicasAtInstant && TieredCompilation == other.TieredCompilation;

    /// <summary>Whether every app's replica count at the instant was read.</summary>
    public bool ReplicasKnown =>
        ReplicasAtInstant.Length > 0 && !ReplicasAtInstant.Contains("=?", StringComparison.Ordinal);
}

/// <summary>What a burst's telemetry cost in Log Analytics: MB billed and their price, rounded as printed.</summary>
public sealed record TelemetryCost(double BilledMb, double Cost);
