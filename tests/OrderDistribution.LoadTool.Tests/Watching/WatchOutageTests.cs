using System.Net.Sockets;
using Microsoft.Extensions.Time.Testing;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Tests.Watching;

/// <summary>The watch through a storage outage, on a simulated store and clock.</summary>
public sealed class WatchOutageTests
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task After_a_minute_long_outage_the_watch_sees_the_rest_within_seconds_not_a_minute_later()
    {
        var orders = OrderGenerator.Generate(100, seed: 3);
        var outageEnds = Start.AddSeconds(62);
        var restStored = outageEnds.AddSeconds(8);
        var arrivals = orders.Select((o, i) => (o, i < 50 ? Start.AddSeconds(1) : restStored));
        var clock = new SimulatedClock(Start);
        var store = new RefusingBetween(new SimulatedStore(clock, arrivals), clock, Start.AddSeconds(2), outageEnds);

        var told = new List<string>();

        var report = await new OutboxWatcher(store, WatchPacing.Fixed(TimeSpan.FromSeconds(1)), clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromMinutes(5), null,
                new SynchronousProgress<string>(told.Add), default);

        Assert.True(report.Complete);
        Assert.Collection(told,
            begins => Assert.Contains("not answering since 12:00:02 UTC", begins, StringComparison.Ordinal),
            ends => Assert.Contains("answers again", ends, StringComparison.Ordinal));
        // A look that spent the outage waiting for storage is not a slow store: the next comes at the pacing's
        // interval.
        var seenAfter = clock.GetUtcNow() - restStored;
        Assert.True(seenAfter <= TimeSpan.FromSeconds(10), $"the rest was seen {seenAfter.TotalSeconds:0} s after");
    }

    [Fact]
    public async Task An_outage_past_the_timeout_ends_the_watch_at_the_timeout_in_one_line_naming_when_it_began()
    {
        var orders = OrderGenerator.Generate(100, seed: 3);
        var clock = new SimulatedClock(Start);
        var store = new RefusingBetween(new SimulatedStore(clock, orders.Select(o => (o, Start.AddSeconds(3)))), clock,
            Start.AddSeconds(2), DateTimeOffset.MaxValue);
        var watcher = new OutboxWatcher(store, WatchPacing.Fixed(TimeSpan.FromSeconds(1)), clock);

        var failed = await Assert.ThrowsAsync<LoadToolException>(() => watcher.WatchAsync(
            WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromMinutes(1), null, null, default));

        Assert.Equal(ExitCodes.Unreachable, failed.ExitCode);
        Assert.StartsWith("Storage at simulated was unreachable from 12:00:02 until the watch's timeout",
            failed.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', failed.Message);
        // Waited out to the timeout, not given up at the first refusal, nor long after.
        Assert.InRange(clock.GetUtcNow() - Start, TimeSpan.FromMinutes(1) - watcher.OutageMaxRetryDelay,
            TimeSpan.FromMinutes(1) + watcher.OutageMaxRetryDelay);
    }

    [Fact]
    public async Task An_outage_past_the_timeout_ends_the_watch_at_its_timeout_not_a_retry_wait_after_it()
    {
        var orders = OrderGenerator.Generate(100, seed: 3);
        var clock = new FakeTimeProvider(Start);
        var store = new RefusingBetween(new SimulatedStore(new SimulatedClock(Start), []), clock,
            Start.AddSeconds(2), DateTimeOffset.MaxValue);
        var watcher = new OutboxWatcher(store, WatchPacing.Fixed(TimeSpan.FromSeconds(1)), clock);
        var timeout = TimeSpan.FromMinutes(1);

        var ended = watcher.WatchAsync(
                WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, timeout, null, null, default)
            .ContinueWith(watch => (watch.Exception?.InnerException, clock.GetUtcNow()),
                TaskContinuationOptions.ExecuteSynchronously);
        var ((failure, at), _) = await FakeClock.AdvancingAsync(clock, TimeSpan.FromMilliseconds(250), () => ended);

        Assert.Equal(ExitCodes.Unreachable, Assert.IsType<LoadToolException>(failure).ExitCode);
        // The last wait between tries ends at the timeout: the watch does not outlast it by a retry's wait.
        Assert.InRange(at - Start, timeout - TimeSpan.FromSeconds(1), timeout + TimeSpan.FromMilliseconds(250));
    }

    /// <summary>Every listing is refused (a reset connection) from <paramref name="from"/> until
    /// <paramref name="until"/>.</summary>
    private sealed class RefusingBetween(IOutboxReader store, TimeProvider clock, DateTimeOffset from,
        DateTimeOffset until) : IOutboxReader
    {
        public string Endpoint => store.Endpoint;

        public IReadOnlyList<string> Outboxes => store.Outboxes;

        public Task<OutboxPage> ListPageAsync(string container, string prefix, string? continuation, int pageSize,
            bool storedTimes, CancellationToken cancellationToken) =>
            clock.GetUtcNow() >= from && clock.GetUtcNow() < until
                ? Task.FromException<OutboxPage>(new SocketException((int)SocketError.ConnectionReset))
                : store.ListPageAsync(container, prefix, continuation, pageSize, storedTimes, cancellationToken);
    }
}
