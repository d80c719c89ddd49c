using System.Diagnostics;
using System.Globalization;
using System.Text;
using Microsoft.Extensions.Logging;

namespace OrderDistribution.TestSupport;

/// <summary>
/// What the trio was doing around a storage outage, a line a second: stored so far, what each stream or queue still
/// holds, and each receiver's RETRY and circuit-breaker lines so far, so that a failed recovery bound names its cause.
/// The sample is the caller's; the timeline also tells when the last order was seen stored.
/// </summary>
public sealed class OutageTimeline : IAsyncDisposable
{
    private static readonly TimeSpan Every = TimeSpan.FromSeconds(1);

    private readonly StringBuilder _lines = new();
    private readonly Lock _lock = new();
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _sampling;
    private TimeSpan? _back;
    private TimeSpan _lastRise;
    private int _lastCount = -1;

    /// <param name="stored">How many orders are stored now.</param>
    /// <param name="sample">The rest of a line: what the broker holds, what the apps logged.</param>
    public OutageTimeline(int expected, Func<Task<int>> stored, Func<Task<string>> sample)
    {
        _sampling = Task.Run(async () =>
        {
            while (!_stop.IsCancellationRequested)
            {
                try
                {
                    var count = await stored();
                    var line = await sample();
                    lock (_lock)
                    {
                        if (_back is { } back && AllStoredAfterBack is null)
                        {
                            var now = _clock.Elapsed;
                            if (_lastCount < 0 || count > _lastCount)
                            {
                                _lastRise = _lastCount < 0 ? back : now;
                                _lastCount = count;
                            }

                            var flat = now - _lastRise;
                            LongestStallAfterBack = flat > LongestStallAfterBack ? flat : LongestStallAfterBack;
                            if (count >= expected)
                            {
                                AllStoredAfterBack = now - back;
                            }
                        }

                        _lines.Append(CultureInfo.InvariantCulture, $"{Label()}: {count} stored; {line}\n");
                    }
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    lock (_lock)
                    {
                        _lines.Append(CultureInfo.InvariantCulture, $"{Label()}: no sample ({e.Message})\n");
                    }
                }

                try
                {
                    await Task.Delay(Every, _stop.Token);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        });
    }

    /// <summary>How long after storage answered again the last order was seen stored; null until then.</summary>
    public TimeSpan? AllStoredAfterBack { get; private set; }

    /// <summary>
    /// The longest time after storage answered again during which no more orders were seen stored while some were
    /// missing: work on a busy machine goes on storing; a wait on a timer stands still.
    /// </summary>
    public TimeSpan LongestStallAfterBack { get; private set; }

    /// <summary>Storage answers again from now.</summary>
    public void StorageBack()
    {
        lock (_lock)
        {
            _back = _clock.Elapsed;
        }
    }

    /// <summary>A receiver's lines so far that say it answered RETRY, and what its storage breaker did (its closing
    /// is logged at Debug: counted where the app logs it).</summary>
    /// <param name="skip">Lines logged before the outage's burst.</param>
    public static string ReceiverLines(string receiver, LogRecorder logs, int skip = 0)
    {
        var lines = logs.Lines.Skip(skip).ToList();
        var retry = lines.Count(
            l => l.Level >= LogLevel.Warning && l.Message.Contains(" RETRY", StringComparison.Ordinal));
        var opened = lines.Count(l => l.Message.StartsWith("Most calls to", StringComparison.Ordinal));
        var closed = lines.Count(l => l.Message.EndsWith(" answers again", StringComparison.Ordinal));
        return string.Create(CultureInfo.InvariantCulture,
            $"{receiver}: {retry} RETRY lines, breaker opened {opened}, closed {closed}");
    }

    public override string ToString()
    {
        lock (_lock)
        {
            return "what the trio was doing, a line a second (time since storage answered again):\n" + _lines;
        }
    }

    /// <summary>Stops sampling; the timeline stays readable. Once is enough, twice is harmless.</summary>
    public async ValueTask DisposeAsync()
    {
        if (!_stop.IsCancellationRequested)
        {
            await _stop.CancelAsync();
        }

        await _sampling;
    }

    private string Label()
    {
        var since = _clock.Elapsed - (_back ?? _clock.Elapsed);
        return _back is null
            ? string.Create(CultureInfo.InvariantCulture, $"outage {_clock.Elapsed.TotalSeconds:0.0} s")
            : string.Create(CultureInfo.InvariantCulture, $"back +{since.TotalSeconds:0.0} s");
    }
}
