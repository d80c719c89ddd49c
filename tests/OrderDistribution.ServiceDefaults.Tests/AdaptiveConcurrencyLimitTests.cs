using Microsoft.Extensions.Time.Testing;
using Polly;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// The adaptive limit on calls in flight (<see cref="AdaptiveConcurrencyLimit"/>) on a fake clock: a round of slow
/// calls halves it once, calls answered in time raise it again, and callers beyond it wait.
/// </summary>
public sealed class AdaptiveConcurrencyLimitTests
{
    private static readonly DependencyLimits Limits =
        new(AttemptTimeout: TimeSpan.FromSeconds(2), MaxConcurrentCalls: 8);

    [Fact]
    public async Task A_round_of_slow_calls_halves_the_calls_let_out_once_and_calls_in_time_raise_them_again()
    {
        var clock = new FakeTimeProvider();
        using var limit = new AdaptiveConcurrencyLimit(Limits, clock);
        var pipeline = new ResiliencePipelineBuilder().AddStrategy(_ => limit, new Options()).Build();
        var store = new HeldCalls();

        var first = Enumerable.Range(0, 12).Select(_ => pipeline.ExecuteAsync(store.CallAsync).AsTask()).ToList();
        Assert.Equal(8, store.Started);

        // All eight answered past the slow mark (half the attempt timeout): one cut for the round, not eight.
        clock.Advance(TimeSpan.FromSeconds(1.5));
        store.AnswerAll();
        await Task.WhenAll(first.Take(8));
        Assert.Equal(4, limit.Limit);
        // The four that waited went out, and no more beside them.
        await store.StartedAtLeastAsync(12);
        var more = Enumerable.Range(0, 6).Select(_ => pipeline.ExecuteAsync(store.CallAsync).AsTask()).ToList();
        Assert.Equal(4, store.InFlight);

        // Answered in time, calls raise the limit by one a round, back to all eight.
        store.AnswerEvery = true;
        store.AnswerAll();
        await Task.WhenAll(first.Concat(more));
        for (var i = 0; i < 40; i++)
        {
            await pipeline.ExecuteAsync(store.CallAsync);
        }

        Assert.Equal(8, limit.Limit);
        store.AnswerEvery = false;
        var last = Enumerable.Range(0, 10).Select(_ => pipeline.ExecuteAsync(store.CallAsync).AsTask()).ToList();
        Assert.Equal(8, store.InFlight);
        store.AnswerEvery = true;
        store.AnswerAll();
        await Task.WhenAll(last);
    }

    [Fact]
    public async Task A_cut_while_slots_are_idle_holds_them_back_at_once_so_no_more_calls_go_out_than_the_limit()
    {
        var clock = new FakeTimeProvider();
        using var limit = new AdaptiveConcurrencyLimit(Limits, clock);
        var pipeline = new ResiliencePipelineBuilder().AddStrategy(_ => limit, new Options()).Build();
        var store = new HeldCalls();
        var slow = pipeline.ExecuteAsync(store.CallAsync).AsTask();
        clock.Advance(TimeSpan.FromSeconds(1.5));
        var stillRunning = pipeline.ExecuteAsync(store.CallAsync).AsTask();

        store.AnswerFirst();
        await slow;
        Assert.Equal(4, limit.Limit);
        var next = Enumerable.Range(0, 10).Select(_ => pipeline.ExecuteAsync(store.CallAsync).AsTask()).ToList();

        Assert.Equal(4, store.InFlight);
        store.AnswerEvery = true;
        store.AnswerAll();
        await Task.WhenAll(next.Append(stillRunning));
    }

    [Fact]
    public async Task A_call_its_caller_stopped_waiting_for_cuts_the_limit_then_not_when_it_ends()
    {
        var clock = new FakeTimeProvider();
        using var limit = new AdaptiveConcurrencyLimit(Limits, clock);
        var pipeline = new ResiliencePipelineBuilder().AddStrategy(_ => limit, new Options()).Build();
        var store = new HeldCalls();

        var call = pipeline.ExecuteAsync(store.CallAsync).AsTask();
        clock.Advance(Limits.AttemptTimeout);

        await Assert.ThrowsAsync<Polly.Timeout.TimeoutRejectedException>(() => call);
        Assert.Equal(1, store.InFlight);
        Assert.Equal(4, limit.Limit);
        store.AnswerAll();
        await store.NoneInFlightAsync();
        Assert.Equal(4, limit.Limit);
    }

    [Fact]
    public async Task A_call_of_exactly_the_slow_mark_is_in_time_and_the_limit_rises_by_one_a_round_not_at_once()
    {
        var clock = new FakeTimeProvider();
        using var limit = new AdaptiveConcurrencyLimit(Limits, clock);
        var pipeline = new ResiliencePipelineBuilder().AddStrategy(_ => limit, new Options()).Build();
        var store = new HeldCalls();

        var atTheMark = pipeline.ExecuteAsync(store.CallAsync).AsTask();
        clock.Advance(Limits.SlowCall);
        store.AnswerAll();
        await atTheMark;
        Assert.Equal(8, limit.Limit);

        var slow = pipeline.ExecuteAsync(store.CallAsync).AsTask();
        clock.Advance(Limits.SlowCall + TimeSpan.FromTicks(1));
        store.AnswerAll();
        await slow;
        Assert.Equal(4, limit.Limit);
        store.AnswerEvery = true;
        for (var call = 1; call <= 5; call++)
        {
            await pipeline.ExecuteAsync(store.CallAsync);
            Assert.Equal(call < 5 ? 4 : 5, limit.Limit);
        }
    }

    [Fact]
    public async Task A_caller_that_gives_up_is_answered_cancelled_and_does_not_cut_the_limit()
    {
        var clock = new FakeTimeProvider();
        using var limit = new AdaptiveConcurrencyLimit(Limits, clock);
        var pipeline = new ResiliencePipelineBuilder().AddStrategy(_ => limit, new Options()).Build();
        var store = new HeldCalls();
        using var caller = new CancellationTokenSource();

        var call = pipeline.ExecuteAsync(store.CallAsync, caller.Token).AsTask();
        await caller.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call);
        Assert.Equal(8, limit.Limit);
        store.AnswerAll();
        await store.NoneInFlightAsync();
    }

    private sealed class Options : ResilienceStrategyOptions;

    /// <summary>A store whose calls wait until answered, counting those started and those in flight.</summary>
    private sealed class HeldCalls
    {
        private readonly Lock _lock = new();
        private readonly List<TaskCompletionSource> _held = [];
        private int _started;
        private int _inFlight;

        public bool AnswerEvery { get; set; }

        public int Started => Volatile.Read(ref _started);

        public int InFlight => Volatile.Read(ref _inFlight);

        public async ValueTask CallAsync(CancellationToken _)
        {
            Interlocked.Increment(ref _started);
            Interlocked.Increment(ref _inFlight);
            try
            {
                if (AnswerEvery)
                {
                    return;
                }

                var answer = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                lock (_lock)
                {
                    _held.Add(answer);
                }

                await answer.Task;
            }
            finally
            {
                Interlocked.Decrement(ref _inFlight);
            }
        }

        public void AnswerFirst()
        {
            TaskCompletionSource first;
            lock (_lock)
            {
                first = _held[0];
                _held.RemoveAt(0);
            }

            first.SetResult();
        }

        public async Task NoneInFlightAsync()
        {
            for (var i = 0; i < 500 && InFlight > 0; i++)
            {
                await Task.Delay(10);
            }

            Assert.Equal(0, InFlight);
        }

        public void AnswerAll()
        {
            List<TaskCompletionSource> held;
            lock (_lock)
            {
                held = [.. _held];
                _held.Clear();
            }

            held.ForEach(h => h.SetResult());
        }

        public async Task StartedAtLeastAsync(int count)
        {
            for (var i = 0; i < 500 && Started < count; i++)
            {
                await Task.Delay(10);
            }

            Assert.Equal(count, Started);
        }
    }
}
