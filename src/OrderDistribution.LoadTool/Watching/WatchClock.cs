namespace OrderDistribution.LoadTool.Watching;

/// <summary>Time for the watcher; tests replace it to play an arrival curve without waiting.</summary>
public class WatchClock
{
    public static readonly WatchClock System = new();

    public virtual DateTimeOffset UtcNow => DateTimeOffset.UtcNow;

    public virtual Task DelayAsync(TimeSpan delay, CancellationToken cancellationToken) =>
        Task.Delay(delay, cancellationToken);
}
