using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Tests.Watching;

/// <summary>A clock that moves only when watch waits: a burst's minutes played in no time.</summary>
internal sealed class SimulatedClock(DateTimeOffset start) : WatchClock
{
    private DateTimeOffset _now = start;

    public override DateTimeOffset UtcNow => _now;

    public override Task DelayAsync(TimeSpan delay, CancellationToken cancellationToken)
    {
        _now += delay;
        return Task.CompletedTask;
    }
}
