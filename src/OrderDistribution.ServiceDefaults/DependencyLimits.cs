namespace OrderDistribution.ServiceDefaults;

/// <summary>How hard the apps may lean on one dependency (the sidecar, storage), per process.</summary>
/// <param name="AttemptTimeout">How long a caller waits for one call before it is answered that the dependency did
/// not answer in time.</param>
/// <param name="MaxConcurrentCalls">The most calls in flight at once while the dependency keeps up (<see
/// cref="AdaptiveConcurrencyLimit"/>).</param>
public sealed record DependencyLimits(TimeSpan AttemptTimeout, int MaxConcurrentCalls)
{
    /// <summary>
    /// A call slower than this says the dependency falls behind: half the attempt timeout, before it fires.
    /// </summary>
    public TimeSpan SlowCall => AttemptTimeout / 2;

    /// <summary>How long a call runs on after its caller stopped waiting, before the app hangs up on it.</summary>
    public TimeSpan AbandonAfter => AbandonAfterFor(AttemptTimeout);

    /// <summary>
    /// Six attempts' worth: long enough for a dependency's own queue to drain once it is given less work, short enough
    /// that a connection frozen for good holds one of the process's calls for half a minute, not for ever.
    /// </summary>
    public static TimeSpan AbandonAfterFor(TimeSpan attemptTimeout) => attemptTimeout * 6;
}
