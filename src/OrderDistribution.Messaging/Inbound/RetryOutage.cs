using Microsoft.Extensions.Logging;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// Deliveries answered RETRY, logged as an outage instead of one by one (one per process, shared by every delivery):
/// a warning when the first delivery of an outage is answered RETRY, naming its first failure; while deliveries go on
/// being answered RETRY, a warning at most every <see cref="WarningPace.Interval"/> (the pace the circuit breakers share)
/// with the count since the last line; and one line when none has been answered RETRY for <see cref="QuietPeriod"/>, with
/// the outage's length and the deliveries and entries answered RETRY in all, which retry-drop.kql sums. An outage of a
/// minute in single mode, 500 deliveries at once retried every second, was 160,000 lines.
/// </summary>
internal sealed partial class RetryOutage : IDisposable
{
    /// <summary>No delivery answered RETRY for this long: the outage is over.</summary>
    public static readonly TimeSpan QuietPeriod = TimeSpan.FromSeconds(2);

    private static readonly TimeSpan Tick = TimeSpan.FromSeconds(1);

    private readonly Lock _lock = new();
    private readonly TimeProvider _time;
    private readonly WarningPace _pace;
    private readonly ILogger _logger;
    private ITimer? _timer;
    private long _startedAt;
    private long _lastRetryAt;
    private int _deliveries;
    private int _entries;
    private int _deliveriesSinceLine;
    private int _entriesSinceLine;
    private string? _source;
    private MessagingModel _model;
    private string? _firstFailureSinceLine;

    /// <param name="logger">The deliveries' own category, which retry-drop.kql reads.</param>
    public RetryOutage(TimeProvider time, WarningPace pace, ILogger logger)
    {
        _time = time;
        _pace = pace;
        _logger = logger;
    }

    /// <summary>A delivery was answered; it counts when <paramref name="retryCount"/> of its entries were answered RETRY.</summary>
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
                _deliveries = _entries = 0;
                _source = source;
                _model = model;
                _timer = _time.CreateTimer(_ => Check(), null, Tick, Tick);
            }

            _lastRetryAt = now;
            _deliveries++;
            _entries += retryCount;
            _deliveriesSinceLine++;
            _entriesSinceLine += retryCount;
            _firstFailureSinceLine ??= firstFailure;
            if (_deliveries == 1 && _pace.TryTake())
            {
                LogStarted(_logger, source, model.Text(), retryCount, firstFailure);
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
                LogEnded(_logger, _source!, _model.Text(), Seconds(_startedAt, _lastRetryAt), _deliveries, _entries);
                ResetSinceLine();
            }
            else if (_deliveriesSinceLine > 0 && _pace.TryTake())
            {
                LogGoesOn(_logger, _source!, _model.Text(), Seconds(_startedAt, now), _deliveriesSinceLine,
                    _entriesSinceLine, _firstFailureSinceLine!);
                ResetSinceLine();
            }
        }
    }

    private double Seconds(long from, long to) => Math.Round(_time.GetElapsedTime(from, to).TotalSeconds, 1);

    private void ResetSinceLine()
    {
        _deliveriesSinceLine = _entriesSinceLine = 0;
        _firstFailureSinceLine = null;
    }

    [LoggerMessage(LogLevel.Warning,
        "Deliveries from {Source} ({Model}) are answered RETRY: {RetryCount} entries in the first; one warning at most every 5 s while it lasts; first failure: {FirstFailure}")]
    private static partial void LogStarted(ILogger logger, string source, string model, int retryCount, string firstFailure);

    [LoggerMessage(LogLevel.Warning,
        "Deliveries from {Source} ({Model}) are still answered RETRY after {Seconds} s: {DeliveryCount} deliveries with {RetryCount} entries since the last line; first failure: {FirstFailure}")]
    private static partial void LogGoesOn(
        ILogger logger, string source, string model, double seconds, int deliveryCount, int retryCount, string firstFailure);

    [LoggerMessage(LogLevel.Information,
        "Deliveries from {Source} ({Model}) are answered again: for {Seconds} s, {DeliveryCount} deliveries were answered RETRY, with {RetryCount} entries in all")]
    private static partial void LogEnded(ILogger logger, string source, string model, double seconds, int deliveryCount, int retryCount);
}
