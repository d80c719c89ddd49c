using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Tests.Watching;

/// <summary>
/// What watch costs the store, counted against a simulated store that plays an arrival curve on a simulated clock:
/// a 10,000-order burst as the trio stores it (nothing for 2 s, then a steady 600 orders a second until 18.7 s).
/// </summary>
public sealed class WatchCostTests
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task Whatever_the_pacing_watch_lists_each_blob_about_twice_and_with_the_defaults_looks_a_dozen_times()
    {
        var defaults = await WatchSimulatedBurstAsync(WatchPacing.Default);
        var every15s = await WatchSimulatedBurstAsync(WatchPacing.Fixed(TimeSpan.FromSeconds(15)));
        var every1s = await WatchSimulatedBurstAsync(WatchPacing.Fixed(TimeSpan.FromSeconds(1)));

        // Figures for the report: listing calls and blob names returned.
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"defaults: {defaults.Report.ListingCalls} calls, {defaults.Report.NamesListed} names, " +
            $"{defaults.Report.FinalListingCalls} calls with the stored times; " +
                          $"--poll 15000: {every15s.Report.ListingCalls} calls, {every15s.Report.NamesListed} names; " +
                          $"fixed 1 s: {every1s.Report.ListingCalls} calls, {every1s.Report.NamesListed} names");
        // A name once seen in a finished prefix is not listed again: a faster poll costs calls, not names.
        Assert.All([defaults, every15s, every1s],
            r => Assert.True(r.Report.NamesListed <= 3 * 10_000, $"{r.Report.NamesListed} names"));
        Assert.True(defaults.Report.ListingCalls <= 40, $"{defaults.Report.ListingCalls} listing calls");
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
        Assert.InRange(results[0].Report.CycleTime!.Value.TotalMilliseconds, 2_000 + 9_999 * 1_000.0 / 600 - 1,
            2_000 + 9_999 * 1_000.0 / 600 + 1);
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
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromMinutes(1), null, null,
                default);

        Assert.True(report.Complete);
        // Express is not listed again after its last order came in (3 s); standard until its own end (20 s).
        Assert.InRange((store.LastListed[WatchExpectation.OutboxFor(Delivery.Express)] - Start).TotalSeconds, 3, 5);
        Assert.InRange((store.LastListed[WatchExpectation.OutboxFor(Delivery.Standard)] - Start).TotalSeconds, 19, 22);
    }

    [Fact]
    public async Task Once_all_orders_are_in_watch_asks_each_outbox_beside_the_bursts_prefix_finding_others_blobs()
    {
        var burst = new BurstId(483_920);
        var orders = OrderGenerator.Generate(1_000, seed: 4, burst);
        // Another burst's three orders come in with this one's last, when the watch lists only prefixes of this
        // burst's.
        var other = OrderGenerator.Generate(3, seed: 5, new BurstId(512_345));
        var arrivals = orders.Select((o, i) => (o, Start.AddMilliseconds(20.0 * i)))
            .Concat(other.Select(o => (o, Start.AddMilliseconds(20.0 * 999))));
        var clock = new SimulatedClock(Start);

        var watch = new OutboxWatcher(new SimulatedStore(clock, arrivals), WatchPacing.Default, clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromMinutes(1), null, null,
                default);

        var shared = await Assert.ThrowsAsync<LoadToolException>(() => watch);
        Assert.Equal(ExitCodes.SharedStore, shared.ExitCode);
        Assert.Contains("of burst 512345", shared.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Alone_in_the_store_a_burst_ends_with_one_listing_of_each_outbox_that_reads_each_stored_time_once()
    {
        var orders = OrderGenerator.Generate(1_000, seed: 4, new BurstId(483_920));
        var clock = new SimulatedClock(Start);
        var store = new SimulatedStore(clock, orders.Select((o, i) => (o, Start.AddMilliseconds(20.0 * i))));

        var report = await new OutboxWatcher(store, WatchPacing.Default, clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromMinutes(1), null, null,
                default);

        Assert.True(report.Complete);
        // One page an outbox (500 names each, pages of 1,000), each blob with its stored time once.
        Assert.Equal(2, report.FinalListingCalls);
        Assert.Equal(orders.Count, report.FinalNamesListed);
        Assert.Equal(orders.Count, store.NamesWithStoredTimes);
        Assert.Equal(report.NamesListed, store.NamesListed);
        Assert.Equal(Start.AddMilliseconds(20.0 * 999), report.LastStoredAt);
    }

    [Fact]
    public async Task The_looks_and_the_last_listing_ask_for_pages_smaller_than_the_services_largest()
    {
        // 6,000 orders, all stored before the watch: each outbox's names would fit one page of 5,000, but the blob
        // client holds a page's whole response and its XML tree at once, so the looks ask for pages of LookPageSize
        // and the stored times (twice the bytes a name) come in pages of FinalPageSize: the tool's peak is a smaller
        // page.
        var orders = OrderGenerator.Generate(6_000, seed: 4, new BurstId(483_920));
        var clock = new SimulatedClock(Start);
        var store = new SimulatedStore(clock, orders.Select(o => (o, Start)));
        var watcher = new OutboxWatcher(store, WatchPacing.Default, clock);

        var report = await watcher.WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start,
            TimeSpan.FromMinutes(1), null, null, default);

        Assert.True(report.Complete);
        var perOutbox = orders.GroupBy(o => WatchExpectation.OutboxFor(o.Delivery)).Select(g => g.Count()).ToList();
        Assert.True(watcher.LookPageSize < OutboxStorage.PageSize);
        Assert.Equal(watcher.LookPageSize, store.LargestPage);
        Assert.Equal(perOutbox.Sum(n => (n + watcher.LookPageSize - 1) / watcher.LookPageSize), report.ListingCalls);
        Assert.True(watcher.FinalPageSize < OutboxStorage.PageSize);
        Assert.Equal(watcher.FinalPageSize, store.LargestPageWithStoredTimes);
        Assert.Equal(perOutbox.Sum(n => (n + watcher.FinalPageSize - 1) / watcher.FinalPageSize),
            report.FinalListingCalls);
        Assert.Equal(orders.Count, store.NamesWithStoredTimes);
    }

    [Fact]
    public async Task A_copy_in_the_other_outbox_stored_after_that_outbox_was_done_is_reported_duplicated()
    {
        // Standard orders all arrive in the first 3 s, express ones until 20 s; at 10 s an express order is also stored
        // in the standard outbox, whose looks ended at 3 s.
        var orders = OrderGenerator.Generate(1_000, seed: 4);
        var express = orders.Where(o => o.Delivery == Delivery.Express).ToList();
        var standard = orders.Where(o => o.Delivery == Delivery.Standard).ToList();
        var twice = express[0];
        var arrivals = standard.Select((o, i) => (o, Start.AddMilliseconds(3_000.0 * i / standard.Count)))
            .Concat(express.Select((o, i) => (o, Start.AddMilliseconds(20_000.0 * i / express.Count))))
            .Append((twice with { Delivery = Delivery.Standard }, Start.AddSeconds(10)));
        var clock = new SimulatedClock(Start);

        var store = new SimulatedStore(clock, arrivals);

        var report = await new OutboxWatcher(store, WatchPacing.Fixed(TimeSpan.FromSeconds(1)), clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromMinutes(1), null, null,
                default);

        Assert.True(report.Complete);
        Assert.Equal([twice.OrderId], report.Duplicated);
        Assert.Equal(standard.Count + 1, report.CountPerContainer[WatchExpectation.OutboxFor(Delivery.Standard)]);
    }

    [Fact]
    public async Task Watch_backs_off_while_nothing_arrives()
    {
        var clock = new SimulatedClock(Start);
        var store = new SimulatedStore(clock, []);
        var orders = OrderGenerator.Generate(10, seed: 1);

        var report = await new OutboxWatcher(store, WatchPacing.Default, clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromSeconds(120), null, null,
                default);

        Assert.False(report.Complete);
        // 1, 2, 4, 8, then every 15 s: about 12 looks in 120 s instead of 120, two outboxes each.
        Assert.InRange(store.Calls.Values.Sum(), 2 * 10, 2 * 13);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task At_150000_orders_each_blob_is_listed_a_few_times_not_once_per_look(bool shuffled)
    {
        var orders = OrderGenerator.Generate(150_000, seed: 1);
        // 140 s of arrivals in about the order scheduled, each up to 10 s early or late (two receivers, retries); or,
        // the worst case for listing by prefix, in no order at all, so that the orders still missing are spread over
        // every prefix.
        var random = new Random(5);
        var arrivals = orders.Select((o, i) => (o, Start.AddMilliseconds(shuffled
            ? 12_000 + random.NextDouble() * 140_000
            : 12_000 + i * 140_000.0 / orders.Count + (random.NextDouble() - 0.5) * 20_000))).ToList();
        var clock = new SimulatedClock(Start);
        var store = new SimulatedStore(clock, arrivals);
        var progress = new List<int>();

        var (report, cost) = await WatchCostMeasure.OfAsync(() => new OutboxWatcher(store, WatchPacing.Default, clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromMinutes(10),
                new SynchronousProgress<int>(progress.Add), null, default));

        TestContext.Current.TestOutputHelper?.WriteLine(
            $"150,000 orders{(shuffled ? ", shuffled" : "")}: {report.ListingCalls} listing calls, " +
            $"{report.NamesListed} names listed " +
                          $"({report.NamesListed / 150_000.0:0.00} per blob); the watch's own work (no HTTP): {cost}");
        Assert.True(report.Complete);
        Assert.Empty(report.Duplicated);
        Assert.Equal(report.NamesListed, store.NamesListed);
        Assert.True(report.NamesListed <= (shuffled ? 8L : 3L) * orders.Count,
            $"{report.NamesListed} names listed for {orders.Count} blobs");
        // The looks list names only: each blob's stored time is read once, at the end.
        Assert.Equal(orders.Count, store.NamesWithStoredTimes);
        // Progress from the first page on, never backwards.
        Assert.True(progress.Count > 10);
        Assert.Equal(progress.Order(), progress);
    }

    [Fact]
    public async Task A_lost_order_is_reported_as_missing_at_the_timeout()
    {
        var orders = OrderGenerator.Generate(2_000, seed: 2);
        var lost = orders[1_234];
        var clock = new SimulatedClock(Start);
        var store = new SimulatedStore(clock,
            orders.Where(o => o != lost).Select((o, i) => (o, Start.AddMilliseconds(i))));

        var report = await new OutboxWatcher(store, WatchPacing.Default, clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromSeconds(60), null, null,
                default);

        Assert.Equal([lost.OrderId], report.Missing);
    }

    [Fact]
    public async Task A_listing_running_at_the_timeout_reports_the_orders_not_seen_as_missing_not_a_storage_failure()
    {
        var orders = OrderGenerator.Generate(10, seed: 3);

        var watcher = new OutboxWatcher(new EndlessListing(),
            WatchPacing.Default)
        { FinalListingBudget = TimeSpan.FromSeconds(1) };

        var report = await watcher
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), DateTimeOffset.UtcNow,
                TimeSpan.FromSeconds(1), null, null, default);

        Assert.Equal(orders.Select(o => o.OrderId).Order(), report.Missing);
    }

    private static async Task<(WatchReport Report, DateTimeOffset EndedAt)> WatchSimulatedBurstAsync(WatchPacing pacing)
    {
        var orders = OrderGenerator.Generate(10_000, seed: 1);
        var arrivals = orders.Select((o, i) => (o, Start.AddMilliseconds(2_000 + i * 1_000.0 / 600)));
        var clock = new SimulatedClock(Start);
        var store = new SimulatedStore(clock, arrivals);
        var report = await new OutboxWatcher(store, pacing, clock)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), Start, TimeSpan.FromSeconds(300), null, null,
                default);
        return (report, clock.GetUtcNow());
    }

    /// <summary>A store that answers no listing before the caller gives up.</summary>
    private sealed class EndlessListing : IOutboxReader
    {
        public string Endpoint => "endless";

        public IReadOnlyList<string> Outboxes => OrderTopology.Outboxes;

        public async Task<OutboxPage> ListPageAsync(
            string container, string prefix, string? continuation, int pageSize, bool storedTimes,
            CancellationToken cancellationToken)
        {
            await Task.Delay(Timeout.Infinite, cancellationToken);
            throw new InvalidOperationException("never");
        }
    }
}
