using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Watching;

/// <summary>
/// watch and clear against a real Azurite, with the blobs written by the test as the receivers would.
/// </summary>
[Collection(nameof(WatchAndClearTests))]
public sealed class WatchAndClearTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IAsyncLifetime
{
    private readonly TempFolder _folder = new("order-load-");
    private List<Order> _orders = [];

    public async ValueTask InitializeAsync()
    {
        _orders = OrderGenerator.Generate(200, seed: 5);
        await OrderFile.WriteAsync(Path.Combine(_folder.Path, "orders.json"), OrderSet.ValidOnly(_orders), default);
        Assert.Equal(0, await new Cli().RunAsync(["clear", .. Store()]));
    }

    public ValueTask DisposeAsync()
    {
        _folder.Dispose();
        return ValueTask.CompletedTask;
    }

    [Fact]
    public async Task When_every_order_is_a_blob_watch_reports_the_cycle_time_to_the_last_stored_at_to_the_ms()
    {
        var scheduledAt = DateTimeOffset.UtcNow.AddSeconds(-30);
        var lastStoredAt = scheduledAt.AddMilliseconds(12_345.678);
        await StoreAsync(_orders.Skip(1), storedAt: scheduledAt.AddSeconds(5));
        await StoreAsync(_orders.Take(1), storedAt: lastStoredAt);
        var cli = new Cli();

        var exit = await cli.RunAsync(
            ["watch", "--scheduled-at", scheduledAt.ToString("O"), "--timeout", "5", .. Common()]);

        Assert.Equal(0, exit);
        var report = WatchTally.Of(WatchExpectation.For(OrderSet.ValidOnly(_orders)), OrderTopology.Outboxes,
            scheduledAt, await Outboxes().AllAsync());
        Assert.Equal(lastStoredAt - scheduledAt, report.CycleTime);
        Assert.Equal(12_345, (int)report.CycleTime!.Value.TotalMilliseconds);
        Assert.Equal(200 / report.CycleTime!.Value.TotalSeconds, report.OrdersPerSecond!.Value, 3);
        Assert.Equal(_orders.Count(o => o.Delivery == Delivery.Express),
            report.CountPerContainer[WatchExpectation.OutboxFor(Delivery.Express)]);
        Assert.Contains("200/200 orders stored, cycle time 12.346 s", cli.Output, StringComparison.Ordinal);
        Assert.Contains("0 missing, 0 duplicated", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Watch_expects_only_the_valid_orders_and_reports_the_poison_as_dropped_never_as_missing()
    {
        var set = OrderGenerator.Generate(300, 0.1, seed: 5);
        await OrderFile.WriteAsync(Path.Combine(_folder.Path, "orders.json"), set, default);
        await StoreAsync(set.Orders);
        var cli = new Cli();

        var exit = await cli.RunAsync(
            ["watch", "--scheduled-at", DateTimeOffset.UtcNow.AddSeconds(-5).ToString("O"), "--timeout", "5",
            .. Common()]);

        Assert.True(exit == 0, cli.Output);
        Assert.Contains("270/270 orders stored", cli.Output, StringComparison.Ordinal);
        Assert.Contains("0 missing", cli.Output, StringComparison.Ordinal);
        Assert.Contains("270 valid stored, 30 poison dropped (expected)", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_watch_that_meets_blobs_of_another_burst_says_so_and_exits_6_without_a_result()
    {
        await StoreAsync(_orders);
        var other = OrderGenerator.Generate(10, seed: 6, new BurstId(483_920));
        await StoreAsync(other);
        var cli = new Cli();

        var exit = await cli.RunAsync(
            ["watch", "--scheduled-at", DateTimeOffset.UtcNow.AddSeconds(-5).ToString("O"), "--timeout", "5",
            .. Common()]);

        Assert.True(exit == ExitCodes.SharedStore, cli.Output);
        var express = other.Count(o => o.Delivery == Delivery.Express);
        Assert.Contains(
            $"blobs of another burst besides burst 1's (express-outbox: {express} of burst 483920; standard-outbox: " +
            $"{10 - express} of burst 483920)", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("orders stored, cycle time", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Another_bursts_blobs_stored_while_the_watch_waits_for_its_last_orders_are_found_once_all_are_in()
    {
        // Enough that each outbox's first listing is split: more than 100 names.
        var orders = OrderGenerator.Generate(600, seed: 7, new BurstId(483_920));
        await OrderFile.WriteAsync(Path.Combine(_folder.Path, "orders.json"), OrderSet.ValidOnly(orders), default);
        await StoreAsync(orders.Skip(20));
        var cli = new Cli();
        var watching = cli.RunAsync(
            ["watch", "--scheduled-at", DateTimeOffset.UtcNow.ToString("O"), "--timeout", "30", "--poll", "100",
            "--max-poll", "200", .. Common()]);
        // By now the watch lists only the prefixes of the orders it still waits for: the other burst's names are beside
        // them.
        await Task.Delay(3_000);
        await StoreAsync(OrderGenerator.Generate(3, seed: 6, new BurstId(777_001)));
        await StoreAsync(orders.Take(20));

        Assert.True(await watching == ExitCodes.SharedStore, cli.Output);
        Assert.Contains("of burst 777001", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Watch_refuses_an_orders_file_generated_again_after_the_schedule_in_one_line_with_exit_2()
    {
        await LoadTool.Scheduling.ScheduleRecord.WriteAsync(Path.Combine(_folder.Path, "schedule.json"),
            new LoadTool.Scheduling.ScheduleRecord(DateTimeOffset.UtcNow, "pubsub", 200,
                Path.Combine(_folder.Path, "orders.json"))
            { Burst = 512_345 }, default);
        var cli = new Cli();

        var exit = await cli.RunAsync(["watch", "--timeout", "5", .. Common()]);

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains("is of burst 512345, but the orders file",
            Assert.Single(cli.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Clear_works_ten_times_in_a_row_and_leaves_both_outboxes_there_and_empty()
    {
        for (var run = 0; run < 10; run++)
        {
            await StoreAsync(_orders.Take(20));
            var cli = new Cli();

            Assert.True(await cli.RunAsync(["clear", .. Store()]) == 0, cli.Output);

            Assert.Empty(await Outboxes().AllAsync());
            Assert.All(OrderTopology.Outboxes,
                c => Assert.True(Client().GetBlobContainerClient(c).Exists().Value, $"{c} after clear {run + 1}"));
        }
    }

    [Fact]
    public async Task Watch_names_the_missing_orders_and_exits_1_at_the_timeout()
    {
        await StoreAsync(_orders.Skip(3));
        var cli = new Cli();

        var exit = await cli.RunAsync(
            ["watch", "--scheduled-at", DateTimeOffset.UtcNow.ToString("O"), "--timeout", "1", "--poll", "200",
            .. Common()]);

        Assert.Equal(1, exit);
        Assert.Contains("197/200 orders stored", cli.Output, StringComparison.Ordinal);
        Assert.Contains(string.Join(", ", _orders.Take(3).Select(o => o.OrderId)), cli.Output,
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_order_stored_in_both_outboxes_is_reported_duplicated()
    {
        await StoreAsync(_orders);
        var twice = _orders.First(o => o.Delivery == Delivery.Express);
        await StoreAsync([twice], container: WatchExpectation.OutboxFor(Delivery.Standard));

        var report = WatchTally.Of(WatchExpectation.For(OrderSet.ValidOnly(_orders)), OrderTopology.Outboxes,
            DateTimeOffset.UtcNow, await Outboxes().AllAsync());

        Assert.Equal([twice.OrderId], report.Duplicated);
        Assert.Empty(report.Missing);
    }

    [Fact]
    public async Task Watch_follows_orders_as_they_arrive_and_ends_when_the_last_one_is_stored()
    {
        await StoreAsync(_orders.Take(100));
        var watching = new Cli()
            .RunAsync(
            ["watch", "--scheduled-at", DateTimeOffset.UtcNow.ToString("O"), "--timeout", "30", "--poll", "100",
            .. Common()]);

        await Task.Delay(300);
        Assert.False(watching.IsCompleted);
        await StoreAsync(_orders.Skip(100));

        Assert.Equal(0, await watching);
    }

    [Fact]
    public async Task Clear_empties_both_outboxes()
    {
        await StoreAsync(_orders);

        Assert.Equal(0, await new Cli().RunAsync(["clear", .. Store()]));

        Assert.Empty(await Outboxes().AllAsync());
    }

    [Fact]
    public async Task Clear_signed_in_with_entra_deletes_the_blobs_page_by_page_keeping_the_containers_of_its_roles()
    {
        await StoreAsync(_orders);
        var before = await ContainerCreationsAsync();
        var progress = new List<string>();
        var storage = new OutboxStorage(Client(), OrderTopology.Outboxes)
        {
            KeepContainers = true,
            ClearPageSize = 30,
            ClearConcurrency = 4
        };

        await storage.ClearAsync(new SynchronousProgress<string>(progress.Add), default);

        Assert.Empty(await Outboxes().AllAsync());
        // The same containers: not deleted and created again (a new container has a new ETag).
        Assert.Equal(before, await ContainerCreationsAsync());
        var express = _orders.Count(o => o.Delivery == Delivery.Express);
        Assert.Equal((express + 29) / 30 + (_orders.Count - express + 29) / 30, progress.Count);
        Assert.Contains($"express-outbox: {express} blobs deleted", progress);
    }

    [Fact]
    public async Task Clear_signed_in_with_entra_creates_an_outbox_that_is_missing()
    {
        await Client().GetBlobContainerClient("express-outbox").DeleteIfExistsAsync();

        await new OutboxStorage(Client(), OrderTopology.Outboxes) { KeepContainers = true }.ClearAsync(null, default);

        Assert.True((await Client().GetBlobContainerClient("express-outbox").ExistsAsync()).Value);
    }

    [Fact]
    public async Task Generate_to_blob_uploads_the_orders_to_test_data()
    {
        Assert.Equal(0,
            await new Cli().RunAsync(["generate", "--count", "50", "--seed", "2", "--to-blob", .. Store(), "--orders",
                Path.Combine(_folder.Path, "orders.json")]));

        var blob = Client().GetBlobContainerClient("test-data").GetBlobClient("orders.json");
        Assert.Equal(50,
            (await OrderFile.ReadSetAsync((await blob.DownloadContentAsync()).Value.Content.ToStream(),
            default)).Orders.Count);
    }

    private string[] Store() => ["--storage", storage.Azurite.ConnectionString];

    private string[] Common() =>
        [.. Store(), "--orders", Path.Combine(_folder.Path, "orders.json"), "--state",
            Path.Combine(_folder.Path, "schedule.json")];

    private BlobServiceClient Client() => new(storage.Azurite.ConnectionString);

    private OutboxStorage Outboxes() => new(Client(), OrderTopology.Outboxes);

    private async Task<List<Azure.ETag>> ContainerCreationsAsync()
    {
        var created = new List<Azure.ETag>();
        foreach (var name in OrderTopology.Outboxes)
        {
            created.Add((await Client().GetBlobContainerClient(name).GetPropertiesAsync()).Value.ETag);
        }

        return created;
    }

    /// <summary>
    /// As a receiver does: the order's JSON as <c>{OrderId}.json</c>, its stored time as metadata <c>storedat</c>.
    /// </summary>
    private async Task StoreAsync(IEnumerable<Order> orders, string? container = null, DateTimeOffset? storedAt = null)
    {
        foreach (var order in orders)
        {
            await StoredOrders.StoreAsync(
                Client(), container ?? WatchExpectation.OutboxFor(order.Delivery), order,
                    storedAt ?? DateTimeOffset.UtcNow);
        }
    }
}
