namespace OrderDistribution.ServiceDefaults;

/// <summary>How hard the apps may lean on one dependency (the sidecar, storage), per process.</summary>
/// <param name="MaxConcurrentCalls">The most calls in flight at once while the dependency keeps up (<see
/// cref="AdaptiveConcurrencyLimit"/>).</param>
public sealed record DependencyLimits(TimeSpan AttemptTimeout, int MaxConcurrentCalls)
{
    /// <summary>
    /// A call slower than this says the dependency falls behind: half the attempt timeout, before it fires.
    /// </summary>
    public TimeSpan SlowCall => AttemptTimeout / 2;
}
