using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>
/// What watch costs the store, counted against a simulated store that plays an arrival curve on a simulated clock:
/// the 10,000-order burst of issue 10 (nothing for 2 s, then a steady 600 orders a second until 18.7 s).
/// </summary>
public sealed class WatchCostTests
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task With_the_defaults_watch_lists_the_burst_about_as_rarely_as_a_15_second_poll_and_far_less_than_a_fixed_1_second_poll()
    {
        var defaults = await WatchSimulatedBurstAsync(WatchPacing.Default);
        var every15s = await WatchSimulatedBurstAsync(WatchPacing.Fixed(TimeSpan.FromSeconds(15)));
        var every1s = await WatchSimulatedBurstAsync(WatchPacing.Fixed(TimeSpan.FromSeconds(1)));

        // Figures for the report: listing calls and blob names returned.
        Console.WriteLine($"defaults: {defaults.Report.ListingCalls} calls, {defaults.Report.NamesListed} names; " +
                          $"--poll 15000: {every15s.Report.ListingCalls} calls, {every15s.Report.NamesListed} names; " +
                          $"fixed 1 s: {every1s.Report.ListingCalls} calls, {every1s.Report.NamesListed} names");
        Assert.True(defaults.Report.NamesListed <= 2 * every15s.Report.NamesListed,
            $"defaults listed {defaults.Report.NamesListed} names, --poll 15000 {every15s.Report.NamesListed}");
        Assert.True(defaults.Report.NamesListed * 4 <= every1s.Report.NamesListed,
            $"defaults listed {defaults.Report.NamesListed} names, a fixed 1 s poll {every1s.Report.NamesListed}");
        Assert.True(defaults.Report.ListingCalls <= 12, $"{defaults.Report.ListingCalls} listing calls");
        // ...and it still notices the end within a few seconds of it, where the 15 s poll waits up to 15 s.
        Assert.InRange((defaults.EndedAt - Start).TotalSeconds, 18.7, 22);
    }

    [Fact]
    public async Task The_cycle_time_is_the_same_whatever_the_poll()
    {
        var results = new[]
        {
            await WatchSimulatedBurstAsync(WatchPacing.Default),
            await WatchSimulatedBurstAsync(WatchPacing.Fixed(TimeSpan.FromMilliseconds(100))),
            await WatchSimulatedBurstAsync(WatchPacing.Fixed(TimeSpan.FromSeconds(15))),
            await WatchSimulatedBurstAsync(new WatchPacing(TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(60))),
        };

        Assert.All(results, r => Assert.True(r.Report.Complete));
        Assert.All(results, r => Assert.Equal(results[0].Report.CycleTime, r.Report.CycleTime));
        Assert.InRange(results[0].Report.CycleTime!.Value.TotalMilliseconds, 2_000 + 9_999 * 1_000.0 / 600 - 1, 2_000 + 9_999 * 1_000.0 / 600 + 1);
    }

    [Fact]
    public async Task Watch_stops_listing_an_outbox_once_every_order_that_belongs_there_is_in_it()
    {
        // Express orders all arrive in the first 3 s; standard ones trickle in until 20 s.
        var orders = OrderGenerator.Generate(1_000, seed: 4);
        var express = orders.Where(o => o.Delivery == Delivery.Express).ToList();
        var standard = orders.Where(o => o.Delivery == Delivery.Standard).ToList();
        var arrivals = express.Select((o, i) => (o, Start.AddMilliseconds(3_000.0 * i / express.Count)))
            .Concat(standard.Select((o, i) => (o, Start.AddMilliseconds(20_000.0 * i / standard.Count))));
        var clock = new SimulatedClock(Start);
        var store = new SimulatedStore(clock, arrivals);

        var report = await new OutboxWatcher(store, WatchPacing.Fixed(TimeSpan.FromSeconds(1)), clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromMinutes(1), null, null, default);

        Assert.True(report.Complete);
        Assert.InRange(store.Calls["express-outbox"], 1, 5);
        Assert.InRange(store.Calls["standard-outbox"], 19, 22);
    }

    [Fact]
    public async Task Watch_backs_off_while_nothing_arrives()
    {
        var clock = new SimulatedClock(Start);
        var store = new SimulatedStore(clock, []);
        var orders = OrderGenerator.Generate(10, seed: 1);

        var report = await new OutboxWatcher(store, WatchPacing.Default, clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromSeconds(120), null, null, default);

        Assert.False(report.Complete);
        // 1, 2, 4, 8, then every 15 s: about 12 looks in 120 s instead of 120, two outboxes each.
        Assert.InRange(store.Calls.Values.Sum(), 2 * 10, 2 * 13);
    }

    private static async Task<(WatchReport Report, DateTimeOffset EndedAt)> WatchSimulatedBurstAsync(WatchPacing pacing)
    {
        var orders = OrderGenerator.Generate(10_000, seed: 1);
        var arrivals = orders.Select((o, i) => (o, Start.AddMilliseconds(2_000 + i * 1_000.0 / 600)));
        var clock = new SimulatedClock(Start);
        var store = new SimulatedStore(clock, arrivals);
        var report = await new OutboxWatcher(store, pacing, clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromSeconds(300), null, null, default);
        return (report, clock.UtcNow);
    }

    private sealed class SimulatedClock(DateTimeOffset start) : WatchClock
    {
        private DateTimeOffset _now = start;

        public override DateTimeOffset UtcNow => _now;

        public override Task DelayAsync(TimeSpan delay, CancellationToken cancellationToken)
        {
            _now += delay;
            return Task.CompletedTask;
        }
    }

    /// <summary>Each order appears in its outbox, with its storedat, at its arrival time; every listing is counted.</summary>
    private sealed class SimulatedStore(SimulatedClock clock, IEnumerable<(Order Order, DateTimeOffset At)> arrivals) : IOutboxReader
    {
        private readonly List<(Order Order, DateTimeOffset At)> _arrivals = arrivals.OrderBy(a => a.At).ToList();

        public Dictionary<string, int> Calls { get; } = OutboxStorage.DefaultOutboxes.ToDictionary(c => c, _ => 0);

        public string Endpoint => "simulated";

        public IReadOnlyList<string> Outboxes => OutboxStorage.DefaultOutboxes;

        public Task<IReadOnlyList<OutboxBlob>> ListAsync(string container, CancellationToken cancellationToken)
        {
            Calls[container]++;
            IReadOnlyList<OutboxBlob> blobs = _arrivals
                .Where(a => a.At <= clock.UtcNow && WatchExpectation.OutboxFor(a.Order.Delivery) == container)
                .Select(a => new OutboxBlob(container, OrderBlob.NameOf(a.Order), a.At.AddTicks(-(a.At.Ticks % TimeSpan.TicksPerSecond)), a.At))
                .ToList();
            return Task.FromResult(blobs);
        }
    }
}
