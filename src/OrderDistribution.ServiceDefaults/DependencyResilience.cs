using Microsoft.Extensions.Logging;
using Polly;
using Polly.CircuitBreaker;
using Polly.Retry;
using Polly.Timeout;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// The one way the apps call what they depend on. Outermost first:
/// <list type="number">
/// <item>retry: a transient failure is tried again twice, after about 0.1 s and 0.2 s with jitter, so that a
/// blip costs milliseconds instead of a broker redelivery a minute later; not a call that timed out, nor one the
/// circuit refused: the dependency is slow or down, and another try at once would only add to its load;</item>
/// <item>concurrency limit: one pool of slots per process, shared by every request, so that 500 concurrent
/// single requests cannot put 500 calls on the dependency at once, and smaller while the dependency is slow
/// (<see cref="AdaptiveConcurrencyLimit"/>); a call waits for a slot, as long as its request's deadline allows. It
/// answers the caller after the attempt timeout, but the call it let through runs on in its slot;</item>
/// <item>circuit breaker: when most recent calls failed, the calls behind them fail at once for a moment
/// instead of each waiting out its own timeout; then one call, and only one, tries the dependency;</item>
/// <item>timeout of the call itself (<see cref="DependencyLimits.AbandonAfter"/>): when the app hangs up on it.</item>
/// </list>
/// Polly's own log lines are off (<see cref="ServiceDefaultsExtensions"/>): it logs every attempt, with a stack trace
/// for each timeout. What the apps handle is logged as an outage by the requests it belongs to; the breaker warns when
/// it opens after having been closed, paced with the requests' warnings (<see cref="WarningPace"/>), and logs at Debug
/// when it opens again after a failed trial or closes: an outage of a minute would otherwise cost a line every 2 s.
/// <para>
/// The retry and the circuit breaker are strategies of <see cref="object"/>. A call made once per order runs as a
/// callback of that type (<c>ExecuteAsync&lt;object?&gt;</c>, returning null): Polly then hands its outcome through
/// them as it is, instead of converting a void outcome in and out of each, two state machines a strategy (what that
/// saves per call: docs/results.md, "Figures on an idle machine").
/// </para>
/// </summary>
public static partial class DependencyResilience
{
    public static ResiliencePipelineBuilder AddDependencyStrategies(
        this ResiliencePipelineBuilder builder, DependencyLimits limits, Func<Exception, bool> isFailure,
        ILogger logger, string dependency, WarningPace pace,
        Func<Exception, bool>? isRetriedWithoutCountingAsFailure = null,
        Func<Exception, string>? describe = null, TimeProvider? time = null)
    {
        var clock = time ?? TimeProvider.System;
        var reason = describe ?? (e => e.Message);
        var retried = isRetriedWithoutCountingAsFailure ?? (_ => false);
        var inTrial = false;
        return builder
            .AddRetry(new RetryStrategyOptions
            {
                ShouldHandle = new PredicateBuilder().Handle<Exception>(e =>
                    e is not (BrokenCircuitException or TimeoutRejectedException) && (isFailure(e) || retried(e))),
                MaxRetryAttempts = 2,
                Delay = TimeSpan.FromMilliseconds(100),
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
            })
            .AddStrategy(_ => new AdaptiveConcurrencyLimit(limits, clock), new AdaptiveConcurrencyOptions())
            .AddCircuitBreaker(new CircuitBreakerStrategyOptions
            {
                ShouldHandle = new PredicateBuilder().Handle<Exception>(isFailure),
                FailureRatio = 0.5,
                MinimumThroughput = 20,
                SamplingDuration = TimeSpan.FromSeconds(10),
                BreakDuration = TimeSpan.FromSeconds(2),
                OnOpened = args =>
                {
                    // A trial is what follows every opening (half-open sets the flag) until the circuit closes.
                    var level = !Volatile.Read(ref inTrial) && pace.TryTake() ? LogLevel.Warning : LogLevel.Debug;
                    var error = args.Outcome.Exception is { } e ? reason(e) : "failed";
                    LogCircuitOpened(logger, level, dependency, args.BreakDuration.TotalSeconds, error);
                    return default;
                },
                OnHalfOpened = _ =>
                {
                    Volatile.Write(ref inTrial, true);
                    return default;
                },
                OnClosed = _ =>
                {
                    Volatile.Write(ref inTrial, false);
                    LogCircuitClosed(logger, dependency);
                    return default;
                },
            })
            .AddTimeout(limits.AbandonAfter);
    }

    /// <summary>The adaptive limit has no options of its own: <see cref="DependencyLimits"/> sets it.</summary>
    private sealed class AdaptiveConcurrencyOptions : ResilienceStrategyOptions;

    [LoggerMessage(
        "Most calls to {Dependency} failed: calls fail at once for {Seconds} s, then one is tried ({Error})")]
    private static partial void LogCircuitOpened(
        ILogger logger, LogLevel level, string dependency, double seconds, string error);

    [LoggerMessage(LogLevel.Debug, "{Dependency} answers again")]
    private static partial void LogCircuitClosed(ILogger logger, string dependency);
}
