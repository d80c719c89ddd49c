namespace OrderDistribution.LoadTool.Watching;

/// <summary>
/// When to look again. The stored times come from the blobs themselves, so looking less often never changes the
/// measured cycle time, only when the watch notices the end: looks back off while nothing changes and otherwise
/// aim at the projected finish, between <see cref="MinInterval"/> and <see cref="MaxInterval"/>.
/// </summary>
public sealed record WatchPacing(TimeSpan MinInterval, TimeSpan MaxInterval)
{
    public static readonly WatchPacing Default = new(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(15));

    /// <summary>Looks at a fixed rate, as <c>--poll</c> did before.</summary>
    public static WatchPacing Fixed(TimeSpan interval) => new(interval, interval);

    /// <param name="previous">The last wait.</param>
    /// <param name="ratePerSecond">Orders stored per second so far, by their own stored times.</param>
    public TimeSpan Next(TimeSpan previous, int storedBefore, int storedNow, int expected, double? ratePerSecond)
    {
        if (storedNow == storedBefore)
        {
            return Clamp(previous * 2);
        }

        return ratePerSecond is > 0 and var rate
            ? Clamp(TimeSpan.FromSeconds(Math.Min((expected - storedNow) / rate, MaxInterval.TotalSeconds)))
            : MinInterval;
    }

    private TimeSpan Clamp(TimeSpan wait) => wait < MinInterval ? MinInterval : wait > MaxInterval ? MaxInterval : wait;
}
