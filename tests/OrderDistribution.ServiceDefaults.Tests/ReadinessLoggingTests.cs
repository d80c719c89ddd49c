using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Time.Testing;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// What <see cref="ReadinessMonitor"/> logs: readiness lost is one warning, paced with the app's other outage warnings,
/// however often a dependency misses a check; "Ready" closes only a spell that was logged.
/// </summary>
public sealed class ReadinessLoggingTests
{
    private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(50);

    [Fact]
    public async Task A_dependency_that_misses_every_other_check_is_logged_once_not_once_a_flip()
    {
        var probe = new Probe(check => check % 2 == 1);
        var logger = new RecordedLog<ReadinessMonitor>();

        await RunAsync(probe, logger, new WarningPace(TimeProvider.System), checks: 24);

        Assert.Equal(["Ready: every dependency answers", "Not ready: flaky: missed check 1",
            "Ready: every dependency answers"], logger.Messages.Take(3));
        Assert.Single(logger.Messages, m => m.StartsWith("Not ready", StringComparison.Ordinal));
        Assert.Equal(2, logger.Messages.Count(m => m.StartsWith("Ready", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task Readiness_lost_while_the_pace_is_taken_is_logged_once_the_pace_allows_and_never_lost()
    {
        var clock = new FakeTimeProvider();
        var pace = new WarningPace(clock);
        Assert.True(pace.TryTake()); // the outage's own warning
        var probe = new Probe(_ => true);
        var logger = new RecordedLog<ReadinessMonitor>();
        using var stop = new CancellationTokenSource();
        var monitor = Monitor(probe, logger, pace);

        await monitor.StartAsync(stop.Token);
        await probe.CheckedAsync(5);
        Assert.Empty(logger.Messages);
        clock.Advance(WarningPace.Interval);
        await probe.CheckedAsync(10);
        await monitor.StopAsync(default);

        var line = Assert.Single(logger.Messages);
        Assert.StartsWith("Not ready: flaky: missed check", line, StringComparison.Ordinal);
        Assert.Equal(LogLevel.Warning, Assert.Single(logger.Levels));
    }

    private static async Task RunAsync(Probe probe, RecordedLog<ReadinessMonitor> logger, WarningPace pace, int checks)
    {
        var monitor = Monitor(probe, logger, pace);
        await monitor.StartAsync(default);
        await probe.CheckedAsync(checks);
        await monitor.StopAsync(default);
    }

    private static ReadinessMonitor Monitor(Probe probe, RecordedLog<ReadinessMonitor> logger, WarningPace pace) => new(
        [probe], new ReadinessState(),
        Options.Create(new ReadinessOptions { Interval = Interval, Timeout = TimeSpan.FromSeconds(1) }), logger, pace);

    /// <summary>Fails the checks <paramref name="misses"/> picks (counted from 0).</summary>
    private sealed class Probe(Func<int, bool> misses) : IReadinessProbe
    {
        private int _checks;

        public string Name => "flaky";

        public Task CheckAsync(CancellationToken cancellationToken)
        {
            var check = Interlocked.Increment(ref _checks) - 1;
            return misses(check)
                ? Task.FromException(new InvalidOperationException($"missed check {check}"))
                : Task.CompletedTask;
        }

        /// <summary>Waits until the probe has been checked at least <paramref name="count"/> times.</summary>
        public async Task CheckedAsync(int count)
        {
            var deadline = DateTime.UtcNow.AddSeconds(30);
            while (Volatile.Read(ref _checks) < count + 1 && DateTime.UtcNow < deadline)
            {
                await Task.Delay(Interval);
            }

            Assert.True(Volatile.Read(ref _checks) > count, $"checked only {_checks} times");
        }
    }
}
