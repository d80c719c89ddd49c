using System.Threading.RateLimiting;
using Polly;
using Polly.Timeout;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// The calls one process has in flight to a dependency: at most <see cref="Limit"/>, shared by every request, and the
/// limit follows the dependency. A call slower than <see cref="DependencyLimits.SlowCall"/>, or one that timed out,
/// halves it (once for all the calls that were in flight together, as TCP halves its window once a round trip); each
/// call answered in time raises it by one over the limit, up to <see cref="DependencyLimits.MaxConcurrentCalls"/>. It
/// never falls below a quarter of that: a process starved of CPU sees every call slow, and one call at a time would
/// then cost it the throughput the store still has; a store that fails outright is the circuit breaker's.
/// Calls beyond the limit wait here, in order, as long as their caller allows: a store that slows down is given less
/// work at once instead of a queue of its own. The slots and the line are System.Threading.RateLimiting's
/// <see cref="ConcurrencyLimiter"/>, of <see cref="DependencyLimits.MaxConcurrentCalls"/> permits; a limit below that
/// is permits held back here (no maintained adaptive limiter is served, and neither it nor Polly adapts its own): a cut
/// keeps the slots of calls that end until enough are held, a rise gives one back.
/// A caller waits for its call at most <see cref="DependencyLimits.AttemptTimeout"/> and is answered that the
/// dependency did not answer (<see cref="TimeoutRejectedException"/>), but the call is not abandoned: it runs on, and
/// keeps its place in the limit, until the dependency answers or <see cref="DependencyLimits.AbandonAfter"/> passes.
/// A store that queues requests still does the work of one whose client hung up, and may never free what it held for
/// it; counted until it ends, a slow call keeps the process from sending more (docs/architecture.md, "When storage
/// slows down").
/// </summary>
internal sealed class AdaptiveConcurrencyLimit(DependencyLimits limits, TimeProvider time)
    : ResilienceStrategy, IDisposable
{
    private readonly ConcurrencyLimiter _slots = new(new ConcurrencyLimiterOptions
    {
        PermitLimit = limits.MaxConcurrentCalls,
        QueueLimit = int.MaxValue,
        QueueProcessingOrder = QueueProcessingOrder.OldestFirst,
    });

    private readonly Lock _lock = new();
    private readonly Stack<RateLimitLease> _heldBack = [];
    private readonly double _floor = Math.Ceiling(limits.MaxConcurrentCalls / 4.0);
    private double _limit = limits.MaxConcurrentCalls;
    private long _lastCutAt = long.MinValue;

    /// <summary>How many calls may be in flight now.</summary>
    public int Limit
    {
        get
        {
            lock (_lock)
            {
                return (int)_limit;
            }
        }
    }

    /// <summary>With the pipeline: callers still waiting for a slot are refused.</summary>
    public void Dispose() => _slots.Dispose();

    protected override async ValueTask<Outcome<TResult>> ExecuteCore<TResult, TState>(
        Func<ResilienceContext, TState, ValueTask<Outcome<TResult>>> callback, ResilienceContext context, TState state)
    {
        RateLimitLease slot;
        try
        {
            slot = await _slots.AcquireAsync(1, context.CancellationToken)
                .ConfigureAwait(context.ContinueOnCapturedContext);
        }
        catch (OperationCanceledException e)
        {
            return Outcome.FromException<TResult>(e);
        }

        var startedAt = time.GetTimestamp();
        // Its own context: the caller's goes back to Polly's pool when the caller is answered, and the call may run on.
        var own = ResilienceContextPool.Shared.Get(context.ContinueOnCapturedContext);
        var call = callback(own, state);
        if (call.IsCompletedSuccessfully)
        {
            return End(slot, startedAt, call.Result, own);
        }

        var running = call.AsTask();
        try
        {
            var outcome = await running.WaitAsync(limits.AttemptTimeout, time, context.CancellationToken)
                .ConfigureAwait(context.ContinueOnCapturedContext);
            return End(slot, startedAt, outcome, own);
        }
        catch (Exception e) when (e is TimeoutException or OperationCanceledException)
        {
            _ = EndWhenAnsweredAsync(slot, startedAt, running, own);
            if (e is OperationCanceledException)
            {
                return Outcome.FromException<TResult>(e);
            }

            RateLimitLease? free;
            lock (_lock)
            {
                free = Adapt(startedAt, timedOut: true, failed: true);
            }

            free?.Dispose();
            return Outcome.FromException<TResult>(new TimeoutRejectedException(
                $"The operation didn't complete within the allowed timeout of '{limits.AttemptTimeout}'.",
                limits.AttemptTimeout));
        }
    }

    private Outcome<TResult> End<TResult>(RateLimitLease slot, long startedAt, Outcome<TResult> outcome,
        ResilienceContext own)
    {
        ResilienceContextPool.Shared.Return(own);
        Exit(slot, startedAt, outcome.Exception);
        return outcome;
    }

    private async Task EndWhenAnsweredAsync<TResult>(RateLimitLease slot, long startedAt,
        Task<Outcome<TResult>> running, ResilienceContext own)
    {
        // The callback's outcome carries its failures; should the task fault all the same, the slot still comes back.
        Outcome<TResult> outcome;
        try
        {
            outcome = await running.ConfigureAwait(false);
        }
        catch (Exception e)
        {
            outcome = Outcome.FromException<TResult>(e);
        }

        End(slot, startedAt, outcome, own);
    }

    /// <summary>The call ended: its slot is held back while the limit is below the permits, else given back.</summary>
    private void Exit(RateLimitLease slot, long startedAt, Exception? failure)
    {
        RateLimitLease? free;
        var kept = false;
        lock (_lock)
        {
            free = Adapt(startedAt, timedOut: failure is TimeoutRejectedException, failed: failure is not null);
            if (_heldBack.Count < HeldBackTarget)
            {
                _heldBack.Push(slot);
                kept = true;
            }
        }

        if (!kept)
        {
            slot.Dispose();
        }

        free?.Dispose();
    }

    private int HeldBackTarget => limits.MaxConcurrentCalls - (int)_limit;

    /// <summary>Adapts the limit to one call; under the lock.</summary>
    /// <returns>A slot held back to give back: the limit rose by one (a call raises it by less).</returns>
    private RateLimitLease? Adapt(long startedAt, bool timedOut, bool failed)
    {
        // A call that failed otherwise says nothing of the store's pace (refused, reset: the circuit breaker's part).
        var now = time.GetTimestamp();
        var slow = timedOut || (!failed && time.GetElapsedTime(startedAt, now) > limits.SlowCall);
        if (slow)
        {
            // Calls that set out before the last cut were in flight at the load that caused it: they count once.
            if (startedAt > _lastCutAt)
            {
                _limit = Math.Max(_floor, Math.Floor(_limit / 2));
                _lastCutAt = now;
                // Slots free now are held back at once; the rest as calls end.
                while (_heldBack.Count < HeldBackTarget && _slots.AttemptAcquire() is { IsAcquired: true } idle)
                {
                    _heldBack.Push(idle);
                }
            }
        }
        else if (!failed)
        {
            _limit = Math.Min(limits.MaxConcurrentCalls, _limit + 1 / _limit);
        }

        return _heldBack.Count > HeldBackTarget ? _heldBack.Pop() : null;
    }
}
