namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// The app's warnings about an outage, paced: at most one per <see cref="Interval"/> per process, shared by every
/// request and every dependency's circuit breaker, so that an outage met by 500 requests at once is logged as one
/// outage. Warnings about one order (a drop) are not paced.
/// </summary>
public sealed class WarningPace(TimeProvider time)
{
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(5);

    private readonly long _intervalTicks = (long)(Interval.TotalSeconds * time.TimestampFrequency);
    private long _next;

    /// <returns>Whether a warning may be logged now; if so, the next one may not before <see cref="Interval"/> has
    /// passed.</returns>
    public bool TryTake()
    {
        var now = time.GetTimestamp();
        var next = Interlocked.Read(ref _next);
        return now >= next && Interlocked.CompareExchange(ref _next, now + _intervalTicks, next) == next;
    }
}
