using System.Net.Sockets;
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

        var report = await new OutboxWatcher(store, WatchPacing.Fixed(TimeSpan.FromSeconds(1)), clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromMinutes(5), null, null,
                default);

        Assert.True(report.Complete);
        // A look that spent the outage waiting for storage is not a slow store: the next comes at the pacing's
        // interval.
        var seenAfter = clock.UtcNow - restStored;
        Assert.True(seenAfter <= TimeSpan.FromSeconds(10), $"the rest was seen {seenAfter.TotalSeconds:0} s after");
    }

    /// <summary>Every listing is refused (a reset connection) from <paramref name="from"/> until
    /// <paramref name="until"/>.</summary>
    private sealed class RefusingBetween(IOutboxReader store, SimulatedClock clock, DateTimeOffset from,
        DateTimeOffset until) : IOutboxReader
    {
        public string Endpoint => store.Endpoint;

        public IReadOnlyList<string> Outboxes => store.Outboxes;

        public Task<OutboxPage> ListPageAsync(string container, string prefix, string? continuation, int pageSize,
            bool storedTimes, CancellationToken cancellationToken) =>
            clock.UtcNow >= from && clock.UtcNow < until
                ? Task.FromException<OutboxPage>(new SocketException((int)SocketError.ConnectionReset))
                : store.ListPageAsync(container, prefix, continuation, pageSize, storedTimes, cancellationToken);
    }
}
