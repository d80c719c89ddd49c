namespace OrderDistribution.LoadTool.AzureBursts;

/// <summary>
/// What scripts/azure-burst.sh read about a burst, for <see cref="AzureBurstBook.RecordAsync"/>: the burst (its
/// schedule record and results file), the replicas and compilation, each app's size and metrics as az printed them,
/// and the telemetry query's rows (none when not queried).
/// </summary>
/// <param name="PricesFile">Where the prices the environment does not set are read from.</param>
public sealed record AzureBurstReadings(
    string State, string Results, int Count, string ReplicasAtInstant, string ReplicasAtEnd, string TieredCompilation,
    IReadOnlyList<AppMetrics> Apps, string? TelemetryVolume, string PricesFile);

/// <summary>One app's allocated size and its metrics over the burst's window, as az printed them.</summary>
public sealed record AppMetrics(string App, string Cpu, string Memory, string UsageNanoCores, string WorkingSetBytes);
