using System.Diagnostics;
using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Watching;

/// <summary>
/// Faults the tool meets: storage not running, slow to answer or stopping mid-watch, a full outbox to clear.
/// </summary>
[Collection(nameof(FaultTests))]
public sealed class FaultTests : IDisposable
{
    private readonly TempFolder _folder = new("order-load-");

    public void Dispose() => _folder.Dispose();

    [Fact]
    public async Task Run_with_storage_not_running_prints_at_most_two_lines_naming_the_endpoint_and_exits_3()
    {
        var port = Azurite.FreePort();

        var (exit, lines) = await Cli.RunProgramAsync("run", "--count", "10", "--storage",
            Azurite.ConnectionStringFor(port),
            "--orders", Path.Combine(_folder.Path, "orders.json"),
            "--state", Path.Combine(_folder.Path, "schedule.json"),
            "--results", Path.Combine(_folder.Path, "LOG.jsonl"));

        Assert.Equal(ExitCodes.Unreachable, exit);
        Assert.InRange(lines.Count, 1, 2);
        Assert.Contains($"http://127.0.0.1:{port}/devstoreaccount1", lines[0], StringComparison.Ordinal);
        Assert.Contains("scripts/run-local.sh", string.Join("\n", lines), StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(_folder.Path, "orders.json")),
            "run changed nothing before it knew storage was there");
    }

    [Fact]
    public async Task With_verbose_a_failure_also_prints_the_stack_trace()
    {
        var (exit, lines) = await Cli.RunProgramAsync("clear", "--storage",
            Azurite.ConnectionStringFor(Azurite.FreePort()), "--verbose");

        Assert.Equal(ExitCodes.Unreachable, exit);
        Assert.Contains(lines, l => l.TrimStart().StartsWith("at ", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Watch_waits_out_azurite_being_stopped_and_started_again_and_still_reports_every_order()
    {
        var (port, data) = (Azurite.FreePort(), Path.Combine(_folder.Path, "azurite"));
        var azurite = await Azurite.StartAsync(data, port);
        var orders = OrderGenerator.Generate(100, seed: 9);
        await OrderFile.WriteAsync(Path.Combine(_folder.Path, "orders.json"), OrderSet.ValidOnly(orders), default);
        var client = new BlobServiceClient(azurite.ConnectionString);
        await StoreAsync(client, orders.Take(50));
        var cli = new Cli();

        var watching = cli.RunAsync("watch", "--storage", azurite.ConnectionString, "--scheduled-at",
            DateTimeOffset.UtcNow.ToString("O"),
            "--timeout", "60", "--poll", "200", "--max-poll", "500",
            "--orders", Path.Combine(_folder.Path, "orders.json"),
            "--state", Path.Combine(_folder.Path, "schedule.json"));
        await Task.Delay(1_000);
        await azurite.DisposeAsync();
        await Task.Delay(4_000);
        Assert.False(watching.IsCompleted, cli.Output);
        await using var restarted = await Azurite.StartAsync(data, port);
        // As the receivers would after the outage: every order not yet there (a stop may lose Azurite's latest writes).
        var present = (await new OutboxStorage(client, OrderTopology.Outboxes).AllAsync()).Select(b => b.Name)
            .ToHashSet();
        await StoreAsync(client, orders.Where(o => !present.Contains(OrderBlob.NameOf(o))));

        Assert.True(await watching == 0, cli.Output);
        Assert.Contains("100/100 orders stored", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Watch_started_while_storage_is_slow_to_answer_waits_for_it_and_reports_every_order()
    {
        var port = Azurite.FreePort();
        await using var azurite = await Azurite.StartAsync(Path.Combine(_folder.Path, "azurite"), port);
        var orders = OrderGenerator.Generate(20, seed: 11);
        await OrderFile.WriteAsync(Path.Combine(_folder.Path, "orders.json"), OrderSet.ValidOnly(orders), default);
        await StoreAsync(new BlobServiceClient(azurite.ConnectionString), orders);
        // A store busy with a burst: it takes every connection and answers late.
        using var busy = new TcpCutProxy(port) { Frozen = true };
        var cli = new Cli();

        var watching = cli.RunAsync("watch", "--storage", Azurite.ConnectionStringFor(busy.Port), "--scheduled-at",
            DateTimeOffset.UtcNow.ToString("O"), "--timeout", "60",
            "--orders", Path.Combine(_folder.Path, "orders.json"),
            "--state", Path.Combine(_folder.Path, "schedule.json"));
        await Task.Delay(8_000);
        Assert.False(watching.IsCompleted, cli.Output);
        busy.Frozen = false;

        Assert.True(await watching == 0, cli.Output);
        Assert.Contains("20/20 orders stored", cli.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Clear_of_10000_blobs_on_azurite_on_disk_takes_under_5_seconds()
    {
        using var data = new TempFolder("azurite-clear");
        await using (var azurite = await Azurite.StartAsync(data.Path))
        {
            var client = new BlobServiceClient(azurite.ConnectionString);
            var orders = OrderGenerator.Generate(10_000, seed: 1);
            foreach (var outbox in OrderTopology.Outboxes)
            {
                await client.GetBlobContainerClient(outbox).CreateIfNotExistsAsync();
            }

            var upload = Stopwatch.StartNew();
            await Parallel.ForEachAsync(orders, new ParallelOptions { MaxDegreeOfParallelism = 32 }, async (order, _) =>
                await StoreAsync(client, [order], createContainer: false));
            upload.Stop();
            var storage = new OutboxStorage(client, OrderTopology.Outboxes);
            Assert.Equal(10_000, (await storage.AllAsync()).Count);
            var cli = new Cli();

            var clock = Stopwatch.StartNew();
            var exit = await cli.RunAsync("clear", "--storage", azurite.ConnectionString);
            clock.Stop();

            Console.WriteLine(
                $"upload of 10,000 blobs {upload.Elapsed.TotalSeconds:0.0} s; clear through the CLI " +
                $"{clock.Elapsed.TotalSeconds:0.000} s");
            Assert.True(exit == 0, cli.Output);
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5), $"clear took {clock.Elapsed}");
            Assert.Empty(await storage.AllAsync());
        }
    }

    private static async Task StoreAsync(BlobServiceClient client, IEnumerable<Order> orders,
        bool createContainer = true)
    {
        foreach (var order in orders)
        {
            await StoredOrders.StoreAsync(client, WatchExpectation.OutboxFor(order.Delivery), order,
                DateTimeOffset.UtcNow, createContainer);
        }
    }
}
