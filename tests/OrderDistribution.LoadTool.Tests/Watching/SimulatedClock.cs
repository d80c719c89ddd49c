namespace OrderDistribution.LoadTool.Tests.Watching;

/// <summary>
/// A clock that moves only when watch waits: each timer fires at once, the clock moved to its time; a burst's minutes
/// played in no time.
/// </summary>
internal sealed class SimulatedClock(DateTimeOffset start) : TimeProvider
{
    private DateTimeOffset _now = start;

    public override DateTimeOffset GetUtcNow() => _now;

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        if (dueTime != Timeout.InfiniteTimeSpan)
        {
            _now += dueTime;
            callback(state);
        }

        return new Fired();
    }

    private sealed class Fired : ITimer
    {
        public bool Change(TimeSpan dueTime, TimeSpan period) => false;

        public void Dispose()
        {
        }

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
