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
/// work at once instead of a queue of its own.
/// A caller waits for its call at most <see cref="DependencyLimits.AttemptTimeout"/> and is answered that the
/// dependency did not answer (<see cref="TimeoutRejectedException"/>), but the call is not abandoned: it runs on, and
/// keeps its place in the limit, until the dependency answers or <see cref="DependencyLimits.AbandonAfter"/> passes.
/// A store that queues requests still does the work of one whose client hung up, and may never free what it held for
/// it; counted until it ends, a slow call keeps the process from sending more (docs/architecture.md, "When storage
/// slows down").
/// </summary>
internal sealed class AdaptiveConcurrencyLimit(DependencyLimits limits, TimeProvider time) : ResilienceStrategy
{
    private readonly Lock _lock = new();
    private readonly LinkedList<TaskCompletionSource<bool>> _waiting = [];
    private readonly double _floor = Math.Ceiling(limits.MaxConcurrentCalls / 4.0);
    private double _limit = limits.MaxConcurrentCalls;
    private int _inFlight;
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

    protected override async ValueTask<Outcome<TResult>> ExecuteCore<TResult, TState>(
        Func<ResilienceContext, TState, ValueTask<Outcome<TResult>>> callback, ResilienceContext context, TState state)
    {
        if (!TryEnter(out var slot))
        {
            using var _ = context.CancellationToken.Register(
                static s => ((TaskCompletionSource<bool>)s!).TrySetCanceled(), slot.Value);
            try
            {
                await slot.Value.Task.ConfigureAwait(context.ContinueOnCapturedContext);
            }
            catch (OperationCanceledException e)
            {
                Leave(slot);
                return Outcome.FromException<TResult>(e);
            }
        }

        var startedAt = time.GetTimestamp();
        // Its own context: the caller's goes back to Polly's pool when the caller is answered, and the call may run on.
        var own = ResilienceContextPool.Shared.Get(context.ContinueOnCapturedContext);
        var call = callback(own, state);
        if (call.IsCompletedSuccessfully)
        {
            return End(startedAt, call.Result, own);
        }

        var running = call.AsTask();
        try
        {
            var outcome = await running.WaitAsync(limits.AttemptTimeout, time, context.CancellationToken)
                .ConfigureAwait(context.ContinueOnCapturedContext);
            return End(startedAt, outcome, own);
        }
        catch (Exception e) when (e is TimeoutException or OperationCanceledException)
        {
            _ = EndWhenAnsweredAsync(startedAt, running, own);
            if (e is OperationCanceledException)
            {
                return Outcome.FromException<TResult>(e);
            }

            lock (_lock)
            {
                Adapt(startedAt, timedOut: true, failed: true);
            }

            return Outcome.FromException<TResult>(new TimeoutRejectedException(
                $"The operation didn't complete within the allowed timeout of '{limits.AttemptTimeout}'.",
                limits.AttemptTimeout));
        }
    }

    private Outcome<TResult> End<TResult>(long startedAt, Outcome<TResult> outcome, ResilienceContext own)
    {
        ResilienceContextPool.Shared.Return(own);
        Exit(startedAt, outcome.Exception);
        return outcome;
    }

    private async Task EndWhenAnsweredAsync<TResult>(long startedAt, Task<Outcome<TResult>> running,
        ResilienceContext own)
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

        End(startedAt, outcome, own);
    }

    private bool TryEnter(out LinkedListNode<TaskCompletionSource<bool>> slot)
    {
        lock (_lock)
        {
            if (_inFlight < (int)_limit && _waiting.Count == 0)
            {
                _inFlight++;
                slot = null!;
                return true;
            }

            slot = _waiting.AddLast(new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously));
            return false;
        }
    }

    /// <summary>
    /// A waiter gave up: out of the line. One handed a slot as it gave up is not: who handed it takes it back.
    /// </summary>
    private void Leave(LinkedListNode<TaskCompletionSource<bool>> slot)
    {
        lock (_lock)
        {
            if (slot.List is not null)
            {
                _waiting.Remove(slot);
            }
        }
    }

    private void Exit(long? startedAt, Exception? failure)
    {
        List<TaskCompletionSource<bool>>? admitted = null;
        lock (_lock)
        {
            _inFlight--;
            if (startedAt is { } started)
            {
                Adapt(started, timedOut: failure is TimeoutRejectedException, failed: failure is not null);
            }

            while (_inFlight < (int)_limit && _waiting.First is { } next)
            {
                _waiting.RemoveFirst();
                _inFlight++;
                (admitted ??= []).Add(next.Value);
            }
        }

        // Outside the lock; a waiter that gave up meanwhile hands its slot back.
        foreach (var waiter in admitted ?? [])
        {
            if (!waiter.TrySetResult(true))
            {
                Exit(startedAt: null, failure: null);
            }
        }
    }

    private void Adapt(long startedAt, bool timedOut, bool failed)
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
            }
        }
        else if (!failed)
        {
            _limit = Math.Min(limits.MaxConcurrentCalls, _limit + 1 / _limit);
        }
    }
}
