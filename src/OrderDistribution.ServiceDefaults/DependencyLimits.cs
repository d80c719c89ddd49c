namespace OrderDistribution.ServiceDefaults;

/// <summary>How hard the apps may lean on one dependency (the sidecar, storage), per process.</summary>
public sealed record DependencyLimits(TimeSpan AttemptTimeout, int MaxConcurrentCalls);
