using Microsoft.WindowsAzure.Storage;
using Microsoft.WindowsAzure.Storage.Blob;
using OrderDistribution.Orders;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>watch and clear against a real Azurite, with the blobs written by the test as the receivers would.</summary>
[Collection(nameof(WatchAndClearTests))]
public sealed class WatchAndClearTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IAsyncLifetime
{
    private readonly string _folder = Path.Combine(Path.GetTempPath(), $"order-load-{Guid.NewGuid():N}");
    private List<Order> _orders = [];

    public async Task InitializeAsync()
    {
        _orders = OrderGenerator.Generate(200, seed: 5);
        await OrderFile.WriteAsync(Path.Combine(_folder, "orders.json"), _orders, default);
        Assert.Equal(0, await new Cli().RunAsync(["clear", .. Common()]));
    }

    public Task DisposeAsync() => Task.CompletedTask;

    [Fact]
    public async Task When_every_order_is_a_blob_watch_reports_the_cycle_time_from_the_last_blob_and_the_counts()
    {
        var scheduledAt = DateTimeOffset.UtcNow.AddSeconds(-30);
        await StoreAsync(_orders);
        var lastModified = (await Outboxes().ListAsync(default)).Max(b => b.LastModified);
        var cli = new Cli();

        var exit = await cli.RunAsync(["watch", "--scheduled-at", scheduledAt.ToString("O"), "--timeout", "5", .. Common()]);

        Assert.Equal(0, exit);
        var report = new OutboxWatcher(Outboxes(), TimeSpan.Zero).Evaluate(_orders.Select(o => o.OrderId).ToList(), scheduledAt, await Outboxes().ListAsync(default));
        Assert.Equal(lastModified - scheduledAt, report.CycleTime);
        Assert.InRange(report.CycleTime!.Value.TotalSeconds, 29, 35);
        Assert.Equal(200 / report.CycleTime.Value.TotalSeconds, report.OrdersPerSecond!.Value, 3);
        Assert.Equal(_orders.Count(o => o.Delivery == Delivery.Express), report.CountPerContainer["express-outbox"]);
        Assert.Contains("200/200 orders stored", cli.Output, StringComparison.Ordinal);
        Assert.Contains("0 missing, 0 duplicated", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Watch_names_the_missing_orders_and_exits_1_at_the_timeout()
    {
        await StoreAsync(_orders.Skip(3));
        var cli = new Cli();

        var exit = await cli.RunAsync(["watch", "--scheduled-at", DateTimeOffset.UtcNow.ToString("O"), "--timeout", "1", "--poll", "200", .. Common()]);

        Assert.Equal(1, exit);
        Assert.Contains("197/200 orders stored", cli.Output, StringComparison.Ordinal);
        Assert.Contains(string.Join(", ", _orders.Take(3).Select(o => o.OrderId)), cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_order_stored_in_both_outboxes_is_reported_duplicated()
    {
        await StoreAsync(_orders);
        var twice = _orders.First(o => o.Delivery == Delivery.Express);
        await StoreAsync([twice], container: "standard-outbox");

        var report = new OutboxWatcher(Outboxes(), TimeSpan.Zero).Evaluate(
            _orders.Select(o => o.OrderId).ToList(), DateTimeOffset.UtcNow, await Outboxes().ListAsync(default));

        Assert.Equal([twice.OrderId], report.Duplicated);
        Assert.Empty(report.Missing);
    }

    [Fact]
    public async Task Watch_follows_orders_as_they_arrive_and_ends_when_the_last_one_is_stored()
    {
        await StoreAsync(_orders.Take(100));
        var watching = new Cli().RunAsync(["watch", "--scheduled-at", DateTimeOffset.UtcNow.ToString("O"), "--timeout", "30", "--poll", "100", .. Common()]);

        await Task.Delay(300);
        Assert.False(watching.IsCompleted);
        await StoreAsync(_orders.Skip(100));

        Assert.Equal(0, await watching);
    }

    [Fact]
    public async Task Clear_empties_both_outboxes()
    {
        await StoreAsync(_orders);

        Assert.Equal(0, await new Cli().RunAsync(["clear", .. Common()]));

        Assert.Empty(await Outboxes().ListAsync(default));
    }

    [Fact]
    public async Task Generate_to_blob_uploads_the_orders_to_test_data()
    {
        Assert.Equal(0, await new Cli().RunAsync(["generate", "--count", "50", "--seed", "2", "--to-blob", .. Common()]));

        var blob = Client().GetContainerReference("test-data").GetBlockBlobReference("orders.json");
        Assert.Equal(50, OrderFile.Deserialize(System.Text.Encoding.UTF8.GetBytes(await blob.DownloadTextAsync())).Count);
    }

    private string[] Common() =>
        ["--storage", storage.Azurite.ConnectionString, "--orders", Path.Combine(_folder, "orders.json"), "--state", Path.Combine(_folder, "schedule.json")];

    private CloudBlobClient Client() => CloudStorageAccount.Parse(storage.Azurite.ConnectionString).CreateCloudBlobClient();

    private OutboxStorage Outboxes() => new(Client(), OutboxStorage.DefaultOutboxes);

    private async Task StoreAsync(IEnumerable<Order> orders, string? container = null)
    {
        foreach (var order in orders)
        {
            var outbox = Client().GetContainerReference(container ?? (order.Delivery == Delivery.Express ? "express-outbox" : "standard-outbox"));
            await outbox.CreateIfNotExistsAsync();
            await outbox.GetBlockBlobReference($"{order.OrderId}.json").UploadTextAsync(TestOrders.Json(order));
        }
    }
}
