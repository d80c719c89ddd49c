using System.Diagnostics;
using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Store;

/// <summary>
/// An outage of the store the tool measures, longer than its lease (the shortest, 15 s), in the middle of a run's
/// watch: the tool reaches storage through a proxy that refuses every call or answers none, while the trio (this test,
/// storing the orders the emulated sidecar took) reaches it directly. The run waits it out and ends exact, unless
/// another tool took the store meanwhile.
/// </summary>
[Collection(nameof(StoreOutageTests))]
public sealed class StoreOutageTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IDisposable
{
    private const int Count = 100;

    private readonly TempFolder _folder = new("order-load-outage-");

    public void Dispose() => _folder.Dispose();

    [Fact]
    public async Task Storage_refusing_every_call_for_50_s_is_waited_out_in_one_line_and_the_run_ends_exact()
    {
        var (cli, running, published, proxy, sidecar) = await StartRunAsync();
        await using var _ = sidecar;
        using var __ = proxy;

        proxy.Refusing = true;
        await StoreAsync(published.Skip(Count / 2));
        await Task.Delay(TimeSpan.FromSeconds(50));
        Assert.False(running.IsCompleted, cli.Output);
        proxy.Refusing = false;
        var exit = await running.WaitAsync(TimeSpan.FromSeconds(60));

        AssertExact(exit, cli.Output);
    }

    [Fact]
    public async Task Storage_answering_nothing_for_45_s_is_waited_out_in_one_line_and_the_run_ends_exact()
    {
        var (cli, running, published, proxy, sidecar) = await StartRunAsync();
        await using var _ = sidecar;
        using var __ = proxy;

        proxy.Frozen = true;
        await StoreAsync(published.Skip(Count / 2));
        await Task.Delay(TimeSpan.FromSeconds(45));
        Assert.False(running.IsCompleted, cli.Output);
        proxy.Frozen = false;
        var exit = await running.WaitAsync(TimeSpan.FromSeconds(60));

        AssertExact(exit, cli.Output);
    }

    [Fact]
    public async Task Another_tool_taking_the_store_during_the_outage_ends_the_run_with_exit_6_naming_it()
    {
        var (cli, running, published, proxy, sidecar) = await StartRunAsync();
        await using var _ = sidecar;
        using var __ = proxy;

        proxy.Refusing = true;
        await StoreAsync(published.Skip(Count / 2));
        // As another run would once the lease lapsed: it takes the store and holds it while storage is away for this
        // one.
        var other = new BurstId(512_345);
        await using (var taken = await TakeWhenFreeAsync(LeaseHolder.Now("run", other, TimeProvider.System)))
        {
            proxy.Refusing = false;
            var exit = await running.WaitAsync(TimeSpan.FromSeconds(60));

            Assert.True(exit == ExitCodes.SharedStore, cli.Output);
            var lost = Assert.Single(cli.Output.Split('\n'),
                l => l.StartsWith("Lost the hold on storage", StringComparison.Ordinal));
            Assert.Contains("order-load run (burst 512345) from host ", lost, StringComparison.Ordinal);
            Assert.DoesNotContain("orders stored, cycle time", cli.Output, StringComparison.Ordinal);
            Assert.False(File.Exists(Results), "a burst that lost its hold was recorded");
        }
    }

    [Fact]
    public async Task Another_tool_that_took_the_store_and_let_go_during_the_outage_is_named_too()
    {
        var (cli, running, published, proxy, sidecar) = await StartRunAsync();
        await using var _ = sidecar;
        using var __ = proxy;

        proxy.Refusing = true;
        await StoreAsync(published.Skip(Count / 2));
        await (await TakeWhenFreeAsync(LeaseHolder.Now("clear", null, TimeProvider.System))).DisposeAsync();
        proxy.Refusing = false;
        var exit = await running.WaitAsync(TimeSpan.FromSeconds(60));

        Assert.True(exit == ExitCodes.SharedStore, cli.Output);
        var lost = Assert.Single(cli.Output.Split('\n'),
            l => l.StartsWith("Lost the hold on storage", StringComparison.Ordinal));
        Assert.Contains("order-load clear from host ", lost, StringComparison.Ordinal);
        Assert.False(File.Exists(Results), "a burst that lost its hold was recorded");
    }

    [Fact]
    public void A_socket_error_passed_on_unwrapped_is_an_outage_and_a_refusal_is_not()
    {
        Assert.True(StoreOutage.IsOutage(new System.Net.Sockets.SocketException(107)));
        Assert.True(
            StoreOutage.IsOutage(
            new InvalidOperationException("wrapped", new System.Net.Sockets.SocketException(104))));
        Assert.True(StoreOutage.IsOutage(new Azure.RequestFailedException("no answer")));
        Assert.False(StoreOutage.IsOutage(new Azure.RequestFailedException(409, "LeaseIdMismatchWithLeaseOperation")));
        Assert.False(StoreOutage.IsOutage(new Azure.RequestFailedException(403, "AuthorizationFailure")));
    }

    /// <summary>
    /// A run of <see cref="Count"/> orders through the proxy, with half its orders stored once it watches.
    /// </summary>
    private async Task<(Cli Cli, Task<int> Running, List<Order> Published, TcpCutProxy Proxy,
        EmulatedSidecar Sidecar)> StartRunAsync()
    {
        var sidecar = await EmulatedSidecar.StartRecordingAsync();
        var proxy = new TcpCutProxy(storage.Azurite.Port);
        var cli = new Cli();
        var running = cli.RunAsync(
            ["run", "--count", $"{Count}", "--timeout", "180", "--poll", "200", "--max-poll", "1000", "--lease", "15",
            "--sidecar", sidecar.Address.ToString(), "--results", Results,
            "--storage", Azurite.ConnectionStringFor(proxy.Port), "--orders", Orders, "--state", State]);
        await WaitForAsync(() => File.Exists(State), "the run's schedule record", running);
        var published = Published(sidecar);
        Assert.Equal(Count, published.Count);
        await StoreAsync(published.Take(Count / 2));
        await WaitForAsync(() => cli.Output.Contains("Waiting for", StringComparison.Ordinal), "the run's watch",
            running);
        return (cli, running, published, proxy, sidecar);
    }

    private void AssertExact(int exit, string output)
    {
        Assert.True(exit == 0, output);
        Assert.Contains($"{Count}/{Count} orders stored", output, StringComparison.Ordinal);
        Assert.Contains("0 missing, 0 duplicated", output, StringComparison.Ordinal);
        Assert.Single(output.Split('\n'), l => l.Contains("not answering since", StringComparison.Ordinal));
        Assert.Single(output.Split('\n'), l => l.Contains("answers again, after", StringComparison.Ordinal));
        Assert.DoesNotContain("unexpectedly", output, StringComparison.Ordinal);
        // One result, and one row of it in the Markdown log beside the results.
        Assert.Single(File.ReadAllLines(ResultsFile.MarkdownOf(Results)),
            l => l.Contains($"| pubsub-bulk | {Count} |", StringComparison.Ordinal));
    }

    /// <summary>
    /// Takes the store directly (not through the proxy) as soon as the run's lease lapses, as another tool would.
    /// </summary>
    private async Task<StoreLease> TakeWhenFreeAsync(LeaseHolder holder)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                return await StoreLease.TakeAsync(Client(), holder, StoreLease.ShortestDuration,
                    new StoreOutage("direct"), TimeProvider.System, default);
            }
            catch (LoadToolException e) when (e.ExitCode == ExitCodes.StoreBusy)
            {
                Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30),
                    "the run's lease of 15 s did not lapse while storage was away");
                await Task.Delay(500);
            }
        }
    }

    private string Orders => Path.Combine(_folder.Path, "orders.json");

    private string State => Path.Combine(_folder.Path, "schedule.json");

    private string Results => Path.Combine(_folder.Path, "LOG.jsonl");

    private BlobServiceClient Client() => new(storage.Azurite.ConnectionString);

    /// <summary>The valid orders the sidecar took, as the distributor would pass them on.</summary>
    private static List<Order> Published(EmulatedSidecar sidecar) =>
        [.. sidecar.BulkPublishes(OrderTopology.IngressQueue).SelectMany(r => r.Json.EnumerateArray())
            .Select(e => OrderJson.Deserialize(e.GetProperty("event")))];

    private async Task StoreAsync(IEnumerable<Order> orders)
    {
        foreach (var order in orders)
        {
            await StoredOrders.StoreAsync(Client(), WatchExpectation.OutboxFor(order.Delivery), order,
                DateTimeOffset.UtcNow);
        }
    }

    private static async Task WaitForAsync(Func<bool> done, string what, Task endsEarly)
    {
        var clock = Stopwatch.StartNew();
        while (!done())
        {
            Assert.False(endsEarly.IsCompleted, $"ended before {what}");
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(60), $"no {what} within 60 s");
            await Task.Delay(50);
        }
    }
}
