using Microsoft.Extensions.Logging;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// Requests answered RETRY, logged as an outage instead of one by one (one per process, shared by every request):
/// a warning when the first request of an outage is answered RETRY, naming its first failure; while requests go on
/// being answered RETRY, a warning at most every <see cref="WarningPace.Interval"/> (the pace the circuit breakers
/// share) with the count since the last line; and one line when none has been answered RETRY for <see
/// cref="QuietPeriod"/>, with the outage's length and the requests and entries answered RETRY in all, which
/// retry-drop.kql sums. An outage of a minute in single mode, 500 requests at once retried every second, was 160,000
/// lines.
/// </summary>
internal sealed partial class RetryOutage : IDisposable
{
    /// <summary>No request answered RETRY for this long: the outage is over. Shorter than the warnings' pace.</summary>
    public static readonly TimeSpan QuietPeriod = TimeSpan.FromSeconds(2);

    private static readonly TimeSpan Tick = TimeSpan.FromSeconds(1);

    private readonly Lock _lock = new();
    private readonly TimeProvider _time;
    private readonly WarningPace _pace;
    private readonly ILogger _logger;
    private ITimer? _timer;
    private long _startedAt;
    private long _lastRetryAt;
    private int _requests;
    private int _entries;
    private int _requestsSinceLine;
    private int _entriesSinceLine;
    private string? _source;
    private MessagingModel _model;
    private string? _firstFailureSinceLine;

    /// <param name="logger">The requests' own category, which retry-drop.kql reads.</param>
    public RetryOutage(TimeProvider time, WarningPace pace, ILogger logger)
    {
        _time = time;
        _pace = pace;
        _logger = logger;
    }

    /// <summary>
    /// A request was answered; it counts when <paramref name="retryCount"/> of its entries were answered RETRY.
    /// </summary>
    public void Answered(string source, MessagingModel model, int retryCount, string firstFailure)
    {
        if (retryCount == 0)
        {
            return;
        }

        lock (_lock)
        {
            var now = _time.GetTimestamp();
            if (_timer is null)
            {
                _startedAt = now;
                _requests = _entries = 0;
                _source = source;
                _model = model;
                _timer = _time.CreateTimer(_ => Check(), null, Tick, Tick);
            }

            _lastRetryAt = now;
            _requests++;
            _entries += retryCount;
            _requestsSinceLine++;
            _entriesSinceLine += retryCount;
            _firstFailureSinceLine ??= firstFailure;
            if (_requests == 1 && _pace.TryTake())
            {
                LogStarted(_logger, source, model.Text(), retryCount, WarningPace.Interval.TotalSeconds, firstFailure);
                ResetSinceLine();
            }
        }
    }

    public void Dispose()
    {
        lock (_lock)
        {
            _timer?.Dispose();
            _timer = null;
        }
    }

    /// <summary>Every second while an outage lasts: its end, or a warning if the pace allows one.</summary>
    private void Check()
    {
        lock (_lock)
        {
            if (_timer is null)
            {
                return;
            }

            var now = _time.GetTimestamp();
            if (_time.GetElapsedTime(_lastRetryAt, now) >= QuietPeriod)
            {
                _timer.Dispose();
                _timer = null;
                LogEnded(_logger, _source!, _model.Text(), Seconds(_startedAt, _lastRetryAt), _requests, _entries);
                ResetSinceLine();
            }
            else if (_pace.TryTake())
            {
                // A request has come since the last line: a line takes the pace, and the quiet period ends an
                // outage before the pace allows another.
                LogGoesOn(_logger, _source!, _model.Text(), Seconds(_startedAt, now), _requestsSinceLine,
                    _entriesSinceLine, _firstFailureSinceLine!);
                ResetSinceLine();
            }
        }
    }

    private double Seconds(long from, long to) => Math.Round(_time.GetElapsedTime(from, to).TotalSeconds, 1);

    private void ResetSinceLine()
    {
        _requestsSinceLine = _entriesSinceLine = 0;
        _firstFailureSinceLine = null;
    }

    [LoggerMessage(LogLevel.Warning,
        "Requests from {Source} ({Model}) are answered RETRY: {RetryCount} entries in the first; one warning at most " +
        "every {PaceSeconds} s while it lasts; first failure: {FirstFailure}")]
    private static partial void LogStarted(ILogger logger, string source, string model, int retryCount,
        double paceSeconds, string firstFailure);

    [LoggerMessage(LogLevel.Warning,
        "Requests from {Source} ({Model}) are still answered RETRY after {Seconds} s: {RequestCount} requests with " +
        "{RetryCount} entries since the last line; first failure: {FirstFailure}")]
    private static partial void LogGoesOn(
        ILogger logger, string source, string model, double seconds, int requestCount, int retryCount,
        string firstFailure);

    [LoggerMessage(LogLevel.Information,
        "Requests from {Source} ({Model}) are answered again: for {Seconds} s, {RequestCount} requests were answered " +
        "RETRY, with {RetryCount} entries in all")]
    private static partial void LogEnded(ILogger logger, string source, string model, double seconds, int requestCount,
        int retryCount);
}
