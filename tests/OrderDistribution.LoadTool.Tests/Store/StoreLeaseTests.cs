using System.Diagnostics;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Azure.Storage.Blobs.Specialized;
using Microsoft.Extensions.Time.Testing;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Store;

/// <summary>
/// One burst at a time per store, on a real Azurite: the lease on the tool's marker blob, taken by run, schedule,
/// ceiling and clear, refused to a second one at once, renewed while the burst runs and lapsing when a tool is killed.
/// </summary>
[Collection(nameof(StoreLeaseTests))]
public sealed class StoreLeaseTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IAsyncDisposable
{
    private readonly TempFolder _folder = new("order-load-lease-");

    /// <summary>The tests share one store: whatever a test leaves leased (a killed tool, a failed test), the next
    /// finds free.</summary>
    public async ValueTask DisposeAsync()
    {
        _folder.Dispose();
        if ((await Marker().ExistsAsync()).Value
            && (await Marker().GetPropertiesAsync()).Value.LeaseState == LeaseState.Leased)
        {
            await Marker().GetBlobLeaseClient().BreakAsync(TimeSpan.Zero);
        }
    }

    [Fact]
    public async Task A_second_run_while_the_first_runs_is_refused_in_a_line_clearing_generating_scheduling_nothing()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        var first = new Cli();
        var running = first.RunAsync(
            ["run", "--count", "200", "--timeout", "60", "--poll", "100", "--max-poll", "200", .. Run(sidecar)]);
        await WaitForAsync(() => File.Exists(State), "the first run's schedule record", running);
        var published = Published(sidecar);
        await StoreAsync(published.Take(100));
        var ordersFile = await File.ReadAllBytesAsync(Orders);

        // Another terminal, the same command and files: refused before it clears, generates or schedules.
        string[][] others =
        [
            ["run", .. Run(sidecar)],
            ["schedule", "--sidecar", sidecar.Address.ToString(), .. Files()],
            ["ceiling", "--results", Results, .. Store()],
            ["clear", .. Store()],
        ];
        foreach (var command in others)
        {
            var second = new Cli();
            var exit = await second.RunAsync(command);

            Assert.True(exit == ExitCodes.StoreBusy, $"{command[0]}: {second.Output}");
            var line = Assert.Single(second.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
            Assert.StartsWith("Refused: another burst holds storage at ", line, StringComparison.Ordinal);
            Assert.Contains(
                $"order-load run (burst {OrderDistribution.LoadTool.Generation.BurstId.Of(published[0].OrderId)}) " +
                $"from host {Environment.MachineName}, started {DateTimeOffset.UtcNow:yyyy-MM-dd} ", line,
                StringComparison.Ordinal);
        }

        Assert.Equal(100, (await Outboxes().AllAsync()).Count);
        Assert.Equal(ordersFile, await File.ReadAllBytesAsync(Orders));
        Assert.Equal(200, sidecar.BulkPublishes(OrderTopology.IngressQueue).Sum(r => r.Json.GetArrayLength()));

        // The first burst is untouched: it ends exact, and lets go of the store.
        await StoreAsync(published.Skip(100));
        Assert.True(await running == 0, first.Output);
        Assert.Contains("200/200 orders stored", first.Output, StringComparison.Ordinal);
        Assert.Single(await ResultsFile.ReadAsync(Results, default), r => r is { Label: "pubsub-bulk", Count: 200 });
        Assert.Equal(LeaseState.Available, (await Marker().GetPropertiesAsync()).Value.LeaseState);
        Assert.Equal(0, await new Cli().RunAsync(["clear", .. Store()]));
    }

    [Fact]
    public async Task A_killed_runs_hold_lapses_within_its_lease_and_then_the_next_burst_goes_ahead()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        // A million orders to generate: the run holds the store for a while before it schedules anything.
        using var killed = Cli.StartProgram(["run", "--count", "1000000", "--lease", "15", .. Run(sidecar)]);
        try
        {
            // Leased, and named: the holder writes who it is just after it takes the lease.
            await WaitForAsync(async () => (await Marker().ExistsAsync()).Value
                                           && (await Marker()
                                               .GetPropertiesAsync()).Value is { LeaseState: LeaseState.Leased } marker
                                           && LeaseHolder.From(marker.Metadata) is not null,
                "the run's lease", null);
        }
        finally
        {
            killed.Kill(entireProcessTree: true);
            await killed.WaitForExitAsync();
        }

        var clock = Stopwatch.StartNew();
        var refused = new Cli();
        Assert.Equal(ExitCodes.StoreBusy, await refused.RunAsync(["clear", .. Store()]));
        Assert.Contains("order-load run (burst ", refused.Output, StringComparison.Ordinal);
        while (await new Cli().RunAsync(["clear", .. Store()]) == ExitCodes.StoreBusy)
        {
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(25), "the killed run's lease of 15 s did not lapse");
            await Task.Delay(500);
        }

        // Its last renewal was at most a quarter of the lease before the kill.
        Assert.InRange(clock.Elapsed.TotalSeconds, 15 - (15 / 4.0) - 1, 15 + 3);
    }

    [Fact]
    public async Task A_run_killed_mid_watch_leaves_its_burst_to_watch_which_takes_no_lease_and_reports_it_exactly()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        // The bindings model schedules over the sidecar's HTTP API, which the emulator serves to a process of its own.
        using (var killed = Cli.StartProgram(
            ["run", "--model", "bindings", "--count", "300", "--timeout", "120", .. Run(sidecar)]))
        {
            try
            {
                await WaitForAsync(() => File.Exists(State), "the run's schedule record", null);
            }
            finally
            {
                killed.Kill(entireProcessTree: true);
                await killed.WaitForExitAsync();
            }
        }

        var published = sidecar.Requests.Where(r => r.Path == $"/v1.0/bindings/{OrderTopology.IngressOutputBinding}")
            .Select(r => OrderJson.Deserialize(r.Json.GetProperty("data"))).ToList();
        await StoreAsync(published);
        var record = await LoadTool.Scheduling.ScheduleRecord.ReadAsync(State, default);
        var cli = new Cli();

        // While the killed run's lease has not lapsed yet.
        Assert.Equal(LeaseState.Leased, (await Marker().GetPropertiesAsync()).Value.LeaseState);
        var exit = await cli.RunAsync(["watch", "--timeout", "30", .. Files()]);

        Assert.True(exit == 0, cli.Output);
        Assert.Contains("bindings: 300/300 orders stored, cycle time ", cli.Output, StringComparison.Ordinal);
        Assert.Equal(OrderDistribution.LoadTool.Generation.BurstId.Of(published[0].OrderId).Value, record.Burst);
    }

    [Fact]
    public async Task A_run_that_loses_its_hold_mid_watch_says_so_in_one_line_exits_6_and_records_nothing()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        var cli = new Cli();
        var running = cli.RunAsync(
            ["run", "--count", "100", "--timeout", "60", "--poll", "100", "--lease", "15", .. Run(sidecar)]);
        await WaitForAsync(() => File.Exists(State), "the run's schedule record", running);

        // As another tool would after the lease lapsed: broken, then taken. No order is stored: the run watches on.
        await Marker().GetBlobLeaseClient().BreakAsync(TimeSpan.Zero);
        var other = Marker().GetBlobLeaseClient();
        await other.AcquireAsync(TimeSpan.FromSeconds(15));

        var exit = await running.WaitAsync(TimeSpan.FromSeconds(30));
        await other.ReleaseAsync();

        Assert.True(exit == ExitCodes.SharedStore, cli.Output);
        var lost = Assert.Single(cli.Output.Split('\n'),
            l => l.StartsWith("Lost the hold on storage", StringComparison.Ordinal));
        Assert.Contains("storage refused to renew it (409", lost, StringComparison.Ordinal);
        Assert.DoesNotContain("orders stored, cycle time", cli.Output, StringComparison.Ordinal);
        Assert.False(File.Exists(Results), "a burst that lost its hold was recorded");
    }

    [Fact]
    public async Task The_hold_is_renewed_every_quarter_of_the_lease_by_the_tools_clock_and_a_refusal_loses_it()
    {
        var clock = new FakeTimeProvider(DateTimeOffset.UtcNow);
        var storage = new OutboxStorage(Client(), OrderTopology.Outboxes, clock);
        await using var lease = await storage.HoldAsync(
            LeaseHolder.Now("run", null, clock), StoreLease.LongestDuration, default);
        // As another tool would after the lease lapsed: broken, then taken.
        await Marker().GetBlobLeaseClient().BreakAsync(TimeSpan.Zero);
        var other = Marker().GetBlobLeaseClient();
        await other.AcquireAsync(TimeSpan.FromSeconds(15));
        try
        {
            // A quarter of the lease is 15 s: by the tool's clock it comes within a few seconds of the real one.
            var real = Stopwatch.StartNew();
            while (!lease.Lost.IsCancellationRequested)
            {
                Assert.True(real.Elapsed < TimeSpan.FromSeconds(10), "no renewal by the tool's clock");
                clock.Advance(TimeSpan.FromMilliseconds(500));
                await Task.Delay(100, TestContext.Current.CancellationToken);
            }
        }
        finally
        {
            await other.ReleaseAsync();
        }

        Assert.StartsWith("storage refused to renew it (409", lease.LostBecause, StringComparison.Ordinal);
        Assert.Equal(ExitCodes.SharedStore, Assert.Throws<LoadToolException>(lease.ThrowIfLost).ExitCode);
    }

    [Fact]
    public void The_default_lease_lapses_within_half_a_minute_and_the_option_takes_what_the_blob_service_grants()
    {
        Assert.True(StoreLease.DefaultDuration < TimeSpan.FromMinutes(1));
        Assert.Equal((15, 60),
            ((int)StoreLease.ShortestDuration.TotalSeconds, (int)StoreLease.LongestDuration.TotalSeconds));
    }

    private string Orders => Path.Combine(_folder.Path, "orders.json");

    private string State => Path.Combine(_folder.Path, "schedule.json");

    private string Results => Path.Combine(_folder.Path, "LOG.jsonl");

    private string[] Store() => ["--storage", storage.Azurite.ConnectionString];

    private string[] Files() => [.. Store(), "--orders", Orders, "--state", State];

    private string[] Run(EmulatedSidecar sidecar) =>
        ["--sidecar", sidecar.Address.ToString(), "--results", Results, .. Files()];

    private BlobServiceClient Client() => new(storage.Azurite.ConnectionString);

    private BlobClient Marker() =>
        Client().GetBlobContainerClient(OrderTopology.LoadToolContainer).GetBlobClient(StoreLease.MarkerBlob);

    private OutboxStorage Outboxes() => new(Client(), OrderTopology.Outboxes);

    /// <summary>The valid orders the sidecar took, as the distributor would pass them on.</summary>
    private static List<Order> Published(EmulatedSidecar sidecar)
    {
        var orders = new List<Order>();
        foreach (var entry in sidecar.BulkPublishes(OrderTopology.IngressQueue)
            .SelectMany(r => r.Json.EnumerateArray()))
        {
            try
            {
                orders.Add(OrderJson.Deserialize(entry.GetProperty("event")));
            }
            catch (InvalidOrderException)
            {
            }
        }

        return orders;
    }

    private async Task StoreAsync(IEnumerable<Order> orders)
    {
        foreach (var order in orders)
        {
            await StoredOrders.StoreAsync(Client(), WatchExpectation.OutboxFor(order.Delivery), order,
                DateTimeOffset.UtcNow);
        }
    }

    private static Task WaitForAsync(Func<bool> done, string what, Task? endsEarly) =>
        WaitForAsync(() => Task.FromResult(done()), what, endsEarly);

    private static async Task WaitForAsync(Func<Task<bool>> done, string what, Task? endsEarly)
    {
        var clock = Stopwatch.StartNew();
        while (!await done())
        {
            Assert.False(endsEarly is { IsCompleted: true }, $"ended before {what}");
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(60), $"no {what} within 60 s");
            await Task.Delay(50);
        }
    }
}
