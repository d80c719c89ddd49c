namespace OrderDistribution.LoadTool;

/// <summary>
/// Takes a reading now and then at every interval of a <see cref="TimeProvider"/>'s clock until stopped: the samples
/// behind a burst's cost and queue series. A reading that fails is left out, counted with the first reason it gave;
/// sampling never ends a burst.
/// </summary>
public sealed class PeriodicSampler<T> : IAsyncDisposable
{
    private readonly Func<CancellationToken, Task<T>> _read;
    private readonly TimeProvider _time;
    private readonly PeriodicTimer _timer;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<(DateTimeOffset At, T Value)> _taken = [];
    private readonly Task _sampling;
    private int _missed;
    private string? _firstFault;

    /// <summary>Starts sampling; the first reading is taken before this returns if it completes at once.</summary>
    public PeriodicSampler(Func<CancellationToken, Task<T>> read, TimeSpan interval, TimeProvider time)
    {
        _read = read;
        _time = time;
        _timer = new PeriodicTimer(interval, time);
        _sampling = SampleAsync();
    }

    /// <summary>Stops sampling; the readings taken, each at the instant it was asked for, in order.</summary>
    public async Task<Samples<T>> StopAsync()
    {
        await _stop.CancelAsync();
        await _sampling;
        return new Samples<T>(_taken, _missed, _firstFault);
    }

    private async Task SampleAsync()
    {
        try
        {
            do
            {
                var at = _time.GetUtcNow();
                try
                {
                    _taken.Add((at, await _read(_stop.Token)));
                }
                catch (Exception e) when (e is not OperationCanceledException || !_stop.IsCancellationRequested)
                {
                    _missed++;
                    _firstFault ??= FailureText.Reason(e);
                }
            }
            while (await _timer.WaitForNextTickAsync(_stop.Token));
        }
        catch (OperationCanceledException) when (_stop.IsCancellationRequested)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _sampling;
        _timer.Dispose();
        _stop.Dispose();
    }
}

/// <summary>What a <see cref="PeriodicSampler{T}"/> read, and how many of its readings failed.</summary>
public sealed record Samples<T>(IReadOnlyList<(DateTimeOffset At, T Value)> Taken, int Missed, string? FirstFault)
{
    /// <summary>One line on the failed readings; null when none failed.</summary>
    public string? Fault =>
        FirstFault is null ? null : $"{Missed} of {Taken.Count + Missed} readings failed, the first: {FirstFault}";
}
