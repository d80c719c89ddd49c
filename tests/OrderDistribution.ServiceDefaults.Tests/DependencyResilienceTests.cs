using Microsoft.Extensions.Logging.Abstractions;
using Polly;
using Polly.Timeout;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// The strategies around every call to a dependency (<see cref="DependencyResilience"/>): a store that slows down is
/// given less work, not more, and a call that timed out is not tried again at once.
/// </summary>
public sealed class DependencyResilienceTests
{
    [Fact]
    public async Task A_store_that_slows_down_is_given_fewer_calls_at_once_and_more_again_once_it_keeps_up()
    {
        // Slow: a call takes longer than half the attempt timeout.
        var limits = new DependencyLimits(AttemptTimeout: TimeSpan.FromSeconds(2), MaxConcurrentCalls: 16);
        var pipeline = Pipeline(limits);
        var slow = new ConcurrencyProbe(TimeSpan.FromMilliseconds(1_300));

        await Task.WhenAll(Enumerable.Range(0, 64).Select(_ => pipeline.ExecuteAsync(slow.CallAsync).AsTask()));

        Assert.Equal(16, slow.MostInFlight(first: 16));
        // Halved at each round of slow calls, down to a quarter.
        Assert.True(slow.MostInFlight(last: 8) <= 4,
            $"still {slow.MostInFlight(last: 8)} calls at once on a slow store");

        var fast = new ConcurrencyProbe(TimeSpan.FromMilliseconds(20));
        await Task.WhenAll(Enumerable.Range(0, 600).Select(_ => pipeline.ExecuteAsync(fast.CallAsync).AsTask()));

        Assert.True(fast.MostInFlight(last: 100) >= 10,
            $"only {fast.MostInFlight(last: 100)} calls at once on a store that keeps up again");
    }

    [Fact]
    public async Task A_call_that_timed_out_is_not_tried_again_at_once()
    {
        var pipeline = Pipeline(
            new DependencyLimits(AttemptTimeout: TimeSpan.FromMilliseconds(200), MaxConcurrentCalls: 4));
        var attempts = 0;

        await Assert.ThrowsAsync<TimeoutRejectedException>(() => pipeline.ExecuteAsync(async ct =>
        {
            Interlocked.Increment(ref attempts);
            await Task.Delay(Timeout.Infinite, ct);
        }).AsTask());

        Assert.Equal(1, attempts);
    }

    [Fact]
    public async Task A_call_its_caller_stopped_waiting_for_runs_on_and_holds_its_place_until_the_dependency_answers()
    {
        var pipeline = Pipeline(
            new DependencyLimits(AttemptTimeout: TimeSpan.FromMilliseconds(200), MaxConcurrentCalls: 1));
        var answer = new TaskCompletionSource();
        var ran = new TaskCompletionSource<bool>();

        await Assert.ThrowsAsync<TimeoutRejectedException>(() => pipeline.ExecuteAsync(async ct =>
        {
            await answer.Task;
            ran.SetResult(ct.IsCancellationRequested);
        }).AsTask().WaitAsync(TimeSpan.FromSeconds(5), TestContext.Current.CancellationToken));

        var next = new TaskCompletionSource();
        var second = pipeline.ExecuteAsync(_ =>
        {
            next.TrySetResult();
            return ValueTask.CompletedTask;
        }, TestContext.Current.CancellationToken).AsTask();
        await Task.Delay(500, TestContext.Current.CancellationToken);
        Assert.False(next.Task.IsCompleted, "a second call went out while the first, timed out, still ran");

        answer.SetResult();
        Assert.False(await ran.Task, "the call was abandoned when its caller stopped waiting");
        await second.WaitAsync(TimeSpan.FromSeconds(5), TestContext.Current.CancellationToken);
    }

    [Fact]
    public async Task A_call_the_dependency_never_answers_is_abandoned_and_frees_its_place()
    {
        var limits = new DependencyLimits(AttemptTimeout: TimeSpan.FromMilliseconds(100), MaxConcurrentCalls: 1);
        var pipeline = Pipeline(limits);
        var abandoned = new TaskCompletionSource();

        await Assert.ThrowsAsync<TimeoutRejectedException>(() => pipeline.ExecuteAsync(async ct =>
        {
            try
            {
                await Task.Delay(Timeout.Infinite, ct);
            }
            finally
            {
                abandoned.SetResult();
            }
        }).AsTask().WaitAsync(TimeSpan.FromSeconds(5), TestContext.Current.CancellationToken));

        Assert.False(abandoned.Task.IsCompleted, "the call was abandoned when its caller stopped waiting");
        await abandoned.Task.WaitAsync(limits.AbandonAfter * 4, TestContext.Current.CancellationToken);
        await pipeline.ExecuteAsync(_ => ValueTask.CompletedTask, TestContext.Current.CancellationToken)
            .AsTask().WaitAsync(TimeSpan.FromSeconds(5), TestContext.Current.CancellationToken);
    }

    private static ResiliencePipeline Pipeline(DependencyLimits limits) =>
        new ResiliencePipelineBuilder()
            .AddDependencyStrategies(limits, isFailure: static _ => true, NullLogger.Instance, "storage",
                new WarningPace(TimeProvider.System))
            .Build();

    /// <summary>
    /// A stand-in for storage that takes a set time per call and notes how many calls it had at once.
    /// </summary>
    private sealed class ConcurrencyProbe(TimeSpan perCall)
    {
        private readonly List<int> _inFlightAtStart = [];
        private int _inFlight;

        public async ValueTask CallAsync(CancellationToken cancellationToken)
        {
            var now = Interlocked.Increment(ref _inFlight);
            lock (_inFlightAtStart)
            {
                _inFlightAtStart.Add(now);
            }

            try
            {
                await Task.Delay(perCall, cancellationToken);
            }
            finally
            {
                Interlocked.Decrement(ref _inFlight);
            }
        }

        /// <summary>The most calls in flight as one of the first or the last calls started.</summary>
        public int MostInFlight(int first = 0, int last = 0)
        {
            lock (_inFlightAtStart)
            {
                return (first > 0 ? _inFlightAtStart.Take(first) : _inFlightAtStart.TakeLast(last)).Max();
            }
        }
    }
}
