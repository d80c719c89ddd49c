using System.Globalization;
using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// <c>run</c> end to end against a real Azurite and the sidecar emulator in its recording mode, with the test playing
/// the trio: every valid order published is stored as a receiver stores it, every poison entry is dropped.
/// </summary>
[Collection(nameof(RunTests))]
public sealed class RunTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IDisposable
{
    private readonly TempFolder _folder = new("order-load-");

    public void Dispose() => _folder.Dispose();

    [Fact]
    public async Task Three_runs_in_a_row_each_store_every_valid_order_drop_the_poison_and_leave_a_chart_and_a_csv()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        using var trio = new CancellationTokenSource();
        var receiving = PlayTheTrioAsync(sidecar, trio.Token);

        for (var run = 1; run <= 3; run++)
        {
            var cli = new Cli();
            var exit = await cli.RunAsync("run", "--count", "500", "--invalid-rate", "0.02", "--seed",
                run.ToString(CultureInfo.InvariantCulture),
                "--storage", storage.Azurite.ConnectionString, "--sidecar", sidecar.Address.ToString(), "--timeout",
                    "60", "--poll", "200",
                "--orders", Path.Combine(_folder.Path, "orders.json"),
                "--state", Path.Combine(_folder.Path, "schedule.json"),
                "--results", Path.Combine(_folder.Path, "LOG.jsonl"));

            Assert.True(exit == 0, $"run {run}: {cli.Output}");
            Assert.Contains("pubsub-bulk: 490/490 orders stored", cli.Output, StringComparison.Ordinal);
            Assert.Contains("490 valid stored, 10 poison dropped (expected)", cli.Output, StringComparison.Ordinal);
            Assert.Contains("orders stored per second", cli.Output, StringComparison.Ordinal);
        }

        await trio.CancelAsync();
        await receiving;
        Assert.Equal(3, (await ResultsFile.ReadAsync(Path.Combine(_folder.Path, "LOG.jsonl"), default))
            .Count(r => r is { Label: "pubsub-bulk", Count: 490, Missing: 0 }));
        // The Markdown log beside the results, for people, holds the same three.
        Assert.Equal(3,
            (await File.ReadAllLinesAsync(Path.Combine(_folder.Path, "LOG.md")))
            .Count(l => l.Contains("| pubsub-bulk | 490 |", StringComparison.Ordinal)));
        var csvs = Directory.GetFiles(_folder.Path, "*-pubsub-bulk.csv");
        Assert.NotEmpty(csvs);
        var csv = await File.ReadAllLinesAsync(csvs[0]);
        Assert.Equal("second,stored,cumulative", csv[0]);
        Assert.EndsWith(",490", csv[^1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_run_against_a_trio_running_another_model_is_refused_before_it_clears_or_generates_anything()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.Metadata = Scheduling.SchedulingTests.PubsubDistributor;
        var orders = Path.Combine(_folder.Path, "orders.json");
        await File.WriteAllTextAsync(orders, "an earlier burst's orders");
        var client = new BlobServiceClient(storage.Azurite.ConnectionString);
        var stored = TestOrders.Make(7, Delivery.Express);
        var outbox = WatchExpectation.OutboxFor(stored.Delivery);
        await StoredOrders.StoreAsync(client, outbox, stored, DateTimeOffset.UtcNow);

        var cli = new Cli();
        var exit = await cli.RunAsync("run", "--model", "bindings", "--count", "50",
            "--storage", storage.Azurite.ConnectionString, "--sidecar", sidecar.Address.ToString(),
            "--orders", orders, "--state", Path.Combine(_folder.Path, "schedule.json"),
            "--results", Path.Combine(_folder.Path, "LOG.jsonl"));

        Assert.Equal(ExitCodes.BadInput, exit);
        Assert.Contains("The trio runs the pub/sub model", cli.Output, StringComparison.Ordinal);
        Assert.Equal("an earlier burst's orders", await File.ReadAllTextAsync(orders));
        Assert.True(await client.GetBlobContainerClient(outbox).GetBlobClient(OrderBlob.NameOf(stored)).ExistsAsync());
        Assert.Empty(sidecar.Requests);
    }

    [Fact]
    public void The_per_second_series_counts_each_order_in_the_second_it_was_stored_after_scheduling()
    {
        var scheduledAt = new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
        var report = new WatchReport(4, new Dictionary<string, int>(), [], [], scheduledAt, scheduledAt.AddSeconds(3.5))
        {
            StoredTimes = [scheduledAt.AddSeconds(0.2), scheduledAt.AddSeconds(0.9), scheduledAt.AddSeconds(3.1),
                scheduledAt.AddSeconds(3.5)],
        };

        var series = StoredSeries.From(report);

        Assert.Equal([2, 0, 0, 2], series.PerSecond);
        Assert.Equal("second,stored,cumulative\n0,2,2\n1,0,2\n2,0,2\n3,2,4\n", SeriesCsv.Of(series.PerSecond));
    }

    /// <summary>
    /// Stores each valid order of every bulk publish the sidecar takes, as a receiver would; drops the rest.
    /// </summary>
    private async Task PlayTheTrioAsync(EmulatedSidecar sidecar, CancellationToken ct)
    {
        var client = new BlobServiceClient(storage.Azurite.ConnectionString);
        var handled = 0;
        while (!ct.IsCancellationRequested)
        {
            var requests = sidecar.BulkPublishes(OrderTopology.IngressQueue).ToList();
            foreach (var request in requests.Skip(handled))
            {
                foreach (var entry in request.Json.EnumerateArray())
                {
                    Order order;
                    try
                    {
                        order = OrderJson.Deserialize(entry.GetProperty("event"));
                    }
                    catch (InvalidOrderException)
                    {
                        continue;
                    }

                    await StoredOrders.StoreAsync(client, WatchExpectation.OutboxFor(order.Delivery), order,
                        DateTimeOffset.UtcNow);
                }
            }

            handled = requests.Count;
            try
            {
                await Task.Delay(100, ct);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }
}
