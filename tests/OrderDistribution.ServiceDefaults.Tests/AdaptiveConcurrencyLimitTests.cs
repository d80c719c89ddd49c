using Microsoft.Extensions.Time.Testing;
using Polly;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// The adaptive limit on calls in flight (<see cref="AdaptiveConcurrencyLimit"/>) on a fake clock: a round of slow
/// calls halves it once, calls answered in time raise it again, and callers beyond it wait.
/// </summary>
public sealed class AdaptiveConcurrencyLimitTests : IDisposable
{
    private static readonly DependencyLimits Limits =
        new(AttemptTimeout: TimeSpan.FromSeconds(2), MaxConcurrentCalls: 8);

    private readonly FakeTimeProvider _clock = new();
    private readonly AdaptiveConcurrencyLimit _limit;
    private readonly ResiliencePipeline _pipeline;
    private readonly HeldCalls _store = new();

    public AdaptiveConcurrencyLimitTests()
    {
        _limit = new AdaptiveConcurrencyLimit(Limits, _clock);
        _pipeline = new ResiliencePipelineBuilder().AddStrategy(_ => _limit, new Options()).Build();
    }

    public void Dispose() => _limit.Dispose();

    [Fact]
    public async Task A_round_of_slow_calls_halves_the_calls_let_out_once_and_calls_in_time_raise_them_again()
    {
        var first = Enumerable.Range(0, 12).Select(_ => _pipeline.ExecuteAsync(_store.CallAsync).AsTask()).ToList();
        Assert.Equal(8, _store.Started);

        // All eight answered past the slow mark (half the attempt timeout): one cut for the round, not eight.
        _clock.Advance(TimeSpan.FromSeconds(1.5));
        _store.AnswerAll();
        await Task.WhenAll(first.Take(8));
        Assert.Equal(4, _limit.Limit);
        // The four that waited went out, and no more beside them.
        await _store.StartedAtLeastAsync(12);
        var more = Enumerable.Range(0, 6).Select(_ => _pipeline.ExecuteAsync(_store.CallAsync).AsTask()).ToList();
        Assert.Equal(4, _store.InFlight);

        // Answered in time, calls raise the limit by one a round, back to all eight.
        _store.AnswerEvery = true;
        _store.AnswerAll();
        await Task.WhenAll(first.Concat(more));
        for (var i = 0; i < 40; i++)
        {
            await _pipeline.ExecuteAsync(_store.CallAsync);
        }

        Assert.Equal(8, _limit.Limit);
        _store.AnswerEvery = false;
        var last = Enumerable.Range(0, 10).Select(_ => _pipeline.ExecuteAsync(_store.CallAsync).AsTask()).ToList();
        Assert.Equal(8, _store.InFlight);
        _store.AnswerEvery = true;
        _store.AnswerAll();
        await Task.WhenAll(last);
    }

    [Fact]
    public async Task A_cut_while_slots_are_idle_holds_them_back_at_once_so_no_more_calls_go_out_than_the_limit()
    {
        var slow = _pipeline.ExecuteAsync(_store.CallAsync).AsTask();
        _clock.Advance(TimeSpan.FromSeconds(1.5));
        var stillRunning = _pipeline.ExecuteAsync(_store.CallAsync).AsTask();

        _store.AnswerFirst();
        await slow;
        Assert.Equal(4, _limit.Limit);
        var next = Enumerable.Range(0, 10).Select(_ => _pipeline.ExecuteAsync(_store.CallAsync).AsTask()).ToList();

        Assert.Equal(4, _store.InFlight);
        _store.AnswerEvery = true;
        _store.AnswerAll();
        await Task.WhenAll(next.Append(stillRunning));
    }

    [Fact]
    public async Task A_call_its_caller_stopped_waiting_for_cuts_the_limit_then_not_when_it_ends()
    {
        var call = _pipeline.ExecuteAsync(_store.CallAsync).AsTask();
        _clock.Advance(Limits.AttemptTimeout);

        await Assert.ThrowsAsync<Polly.Timeout.TimeoutRejectedException>(() => call);
        Assert.Equal(1, _store.InFlight);
        Assert.Equal(4, _limit.Limit);
        _store.AnswerAll();
        await _store.NoneInFlightAsync();
        Assert.Equal(4, _limit.Limit);
    }

    [Fact]
    public async Task A_call_of_exactly_the_slow_mark_is_in_time_and_the_limit_rises_by_one_a_round_not_at_once()
    {
        var atTheMark = _pipeline.ExecuteAsync(_store.CallAsync).AsTask();
        _clock.Advance(Limits.SlowCall);
        _store.AnswerAll();
        await atTheMark;
        Assert.Equal(8, _limit.Limit);

        var slow = _pipeline.ExecuteAsync(_store.CallAsync).AsTask();
        _clock.Advance(Limits.SlowCall + TimeSpan.FromTicks(1));
        _store.AnswerAll();
        await slow;
        Assert.Equal(4, _limit.Limit);
        _store.AnswerEvery = true;
        for (var call = 1; call <= 5; call++)
        {
            await _pipeline.ExecuteAsync(_store.CallAsync);
            Assert.Equal(call < 5 ? 4 : 5, _limit.Limit);
        }
    }

    [Fact]
    public async Task A_caller_that_gives_up_is_answered_cancelled_and_does_not_cut_the_limit()
    {
        using var caller = new CancellationTokenSource();

        var call = _pipeline.ExecuteAsync(_store.CallAsync, caller.Token).AsTask();
        await caller.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call);
        Assert.Equal(8, _limit.Limit);
        _store.AnswerAll();
        await _store.NoneInFlightAsync();
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
