using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Time.Testing;
using Polly;
using Polly.CircuitBreaker;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// The circuit breaker of <see cref="DependencyResilience"/>, on a fake clock: most of 20 calls failing opens it, calls
/// then fail at once for 2 s, one call tries the dependency, and the outage is one warning, not a line per trial.
/// </summary>
public sealed class CircuitBreakerTests
{
    private readonly FakeTimeProvider _clock = new();
    private readonly RecordedLog<CircuitBreakerTests> _log = new(LogLevel.Debug);
    private int _calls;

    [Fact]
    public async Task Most_calls_failing_open_the_circuit_once_warned_and_one_trial_at_a_time_closes_it_again()
    {
        var pipeline = Pipeline();

        var first = await RunAsync(pipeline, Fail, calls: 20);
        Assert.Equal(20, _calls);
        Assert.All(first, failure => Assert.True(failure is IOException or BrokenCircuitException, $"{failure}"));
        Assert.IsType<BrokenCircuitException>(await RunAsync(pipeline, Fail));
        Assert.Equal(20, _calls);
        var warning = Assert.Single(_log.Lines);
        Assert.Equal(LogLevel.Warning, warning.Level);
        Assert.Equal("Most calls to store failed: calls fail at once for 2 s, then one is tried (refused)",
            warning.Message);

        // Past the break (and the warnings' pace): one call tries the store and fails; open again, said at Debug.
        _clock.Advance(TimeSpan.FromSeconds(6));
        Assert.IsType<BrokenCircuitException>(await RunAsync(pipeline, Fail));
        Assert.Equal(21, _calls);
        Assert.Equal((LogLevel.Debug, warning.Message), _log.Lines[^1]);
        Assert.Single(_log.Levels);

        _clock.Advance(TimeSpan.FromSeconds(6));
        Assert.Null(await RunAsync(pipeline, Succeed));
        Assert.Equal(22, _calls);
        Assert.Equal((LogLevel.Debug, "store answers again"), _log.Lines[^1]);

        // Closed, the next outage is warned of again.
        _clock.Advance(TimeSpan.FromSeconds(6));
        await RunAsync(pipeline, Fail, calls: 20);
        Assert.Equal([LogLevel.Warning, LogLevel.Warning], _log.Levels);
    }

    [Fact]
    public async Task A_failure_retried_without_counting_is_tried_three_times_and_never_opens_the_circuit()
    {
        var pipeline = Pipeline();

        var failures = await RunAsync(pipeline, NotFound, calls: 30);

        Assert.All(failures, failure => Assert.IsType<KeyNotFoundException>(failure));
        Assert.Equal(90, _calls);
        Assert.Null(await RunAsync(pipeline, Succeed));
        Assert.Empty(_log.Lines);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task A_failure_that_is_not_the_dependencys_is_neither_retried_nor_counted(bool someRetriedUncounted)
    {
        var pipeline = Pipeline(someRetriedUncounted);

        var failures = await RunAsync(pipeline, Invalid, calls: 30);

        Assert.All(failures, failure => Assert.IsType<InvalidOperationException>(failure));
        Assert.Equal(30, _calls);
        Assert.Null(await RunAsync(pipeline, Succeed));
    }

    /// <param name="someRetriedUncounted">Whether some failures are retried without counting (a missing container for
    /// storage): <see cref="KeyNotFoundException"/> here.</param>
    private ResiliencePipeline Pipeline(bool someRetriedUncounted = true) =>
        new ResiliencePipelineBuilder { TimeProvider = _clock }
            .AddDependencyStrategies(
                new DependencyLimits(AttemptTimeout: TimeSpan.FromSeconds(10), MaxConcurrentCalls: 64),
                isFailure: e => e is IOException, _log, "store", new WarningPace(_clock),
                isRetriedWithoutCountingAsFailure: someRetriedUncounted ? e => e is KeyNotFoundException : null,
                time: _clock)
            .Build();

    private async Task<Exception?> RunAsync(ResiliencePipeline pipeline, Action dependency) =>
        (await RunAsync(pipeline, dependency, calls: 1))[0];

    /// <summary>
    /// Calls at once through the pipeline: each makes its first try before this returns to the caller (nothing in
    /// the pipeline waits before it); then the fake clock moves on in steps while retries wait, until every call ends.
    /// </summary>
    /// <returns>Each call's failure; null for one that succeeded.</returns>
    private async Task<Exception?[]> RunAsync(ResiliencePipeline pipeline, Action dependency, int calls)
    {
        var all = Task.WhenAll(Enumerable.Range(0, calls).Select(_ => FailureOf(pipeline.ExecuteAsync(_ =>
        {
            Interlocked.Increment(ref _calls);
            dependency();
            return ValueTask.CompletedTask;
        }, TestContext.Current.CancellationToken).AsTask())).ToList());
        for (var step = 0; !all.IsCompleted && step < 1_000; step++)
        {
            _clock.Advance(TimeSpan.FromMilliseconds(10));
            await Task.Delay(1, TestContext.Current.CancellationToken);
        }

        return await all.WaitAsync(TimeSpan.FromSeconds(10), TestContext.Current.CancellationToken);
    }

    private static async Task<Exception?> FailureOf(Task call)
    {
        try
        {
            await call;
            return null;
        }
        catch (Exception e)
        {
            return e;
        }
    }

    private static void Fail() => throw new IOException("refused");

    private static void NotFound() => throw new KeyNotFoundException("not there");

    private static void Invalid() => throw new InvalidOperationException("not the store's");

    private static void Succeed()
    {
    }
}
