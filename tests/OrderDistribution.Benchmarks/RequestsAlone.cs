using System.Diagnostics;
using System.Globalization;
using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.Messaging;
using OrderDistribution.TrioHarness;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// What one request per order costs a receiver, alone: the express receiver in a process of its own, delivered to by
/// the sidecar emulator as in pubsub-single and bindings. Each order stored in Azurite; then only uploaded (<see
/// cref="UploadOnlyStore"/>), which leaves out what the receiver's store does around the upload; then with a store
/// that keeps nothing (<see cref="DiscardingStore"/>), all but the upload, as configured and with Application
/// Insights' request telemetry off (one request item per order in those models).
/// </summary>
internal static class RequestsAlone
{
    private const string Instance = "express";

    private static readonly (string Name, Dictionary<string, string> Environment, ReceiverStore Store)[] Settings =
    [
        ("each order stored", [], ReceiverStore.Configured),
        ("each order uploaded, nothing around the upload", [], ReceiverStore.UploadOnly),
        ("orders kept by no store", [], ReceiverStore.Discarding),
        ("orders kept by no store, request telemetry off",
            new() { ["ApplicationInsights__EnableRequestTrackingTelemetryModule"] = "false" },
            ReceiverStore.Discarding),
    ];

    public static async Task Measure(int count)
    {
        var orders = OrderGenerator.Generate(count, seed: 1);
        var data = Directory.CreateTempSubdirectory("azurite-requests");
        await using (var azurite = await Azurite.StartAsync(data.FullName))
        {
            var run = 0;
            foreach (var model in new[] { MessagingModel.PubSubSingle, MessagingModel.Bindings })
            {
                foreach (var (name, environment, store) in Settings)
                {
                    await MeasureOne(azurite.ConnectionString, model, name, environment, store, orders, ++run);
                }
            }
        }

        data.Delete(recursive: true);
    }

    private static async Task MeasureOne(string storage, MessagingModel model, string setting,
        Dictionary<string, string> environment, ReceiverStore store, List<Order> orders, int run)
    {
        var timeout = TimeSpan.FromSeconds(60);
        await using var sidecar = await EmulatedSidecar.StartAsync(new EmulatedSidecarOptions
        {
            ConcurrentSingleRequests = new TrioRunOptions().ConcurrentSingleRequests,
        });
        await using var receiver = await AppProcess.StartAsync(Instance, sidecar.Address, storage, model, timeout,
            environment: environment, store: store);
        using var client = AppHost.ClientOf(receiver.Address);
        var queue = model == MessagingModel.Bindings
            ? OrderTopology.OutputBindingOf(Instance)
            : OrderTopology.QueueOf(Instance);
        sidecar.Subscribe(queue, client, model,
            model == MessagingModel.Bindings ? OrderTopology.InputBindingOf(Instance) : null);
        await AppHost.WaitUntilReadyAsync([client], timeout, default);

        // Ids of their own in each run and round: no order meets a blob an earlier one stored.
        sidecar.Enqueue(queue,
            BurstRounds.WithIdsOfTheirOwn(orders.Take(1_000), round: 2 * run - 1).Select(OrderJson.Serialize));
        await sidecar.WaitUntilQuietAsync(TimeSpan.FromMinutes(2));
        var outbox = new BlobServiceClient(storage).GetBlobContainerClient(OrderTopology.OutboxOf(Instance));
        var storedBefore = await CountAsync(outbox);
        var requests = sidecar.Queues[queue].Requests;
        var before = await receiver.StatsAsync();
        var clock = Stopwatch.StartNew();
        sidecar.Enqueue(queue, BurstRounds.WithIdsOfTheirOwn(orders, round: 2 * run).Select(OrderJson.Serialize));
        if (!await sidecar.WaitUntilQuietAsync(TimeSpan.FromMinutes(5)))
        {
            throw new TimeoutException($"{model.Text()}, {setting}: messages were outstanding after 5 minutes");
        }

        clock.Stop();
        var spent = await receiver.StatsAsync() - before;
        requests = sidecar.Queues[queue].Requests - requests;
        // A figure of a store that uploads stands only for orders it did store, each under an id of its own.
        if (store != ReceiverStore.Discarding && await CountAsync(outbox) - storedBefore is var stored
            && stored != orders.Count)
        {
            throw new InvalidOperationException(
                $"{model.Text()}, {setting}: {stored} blobs stored for the {orders.Count} orders");
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {model.Text()} receiver, {setting}: {spent.Cpu.TotalMilliseconds / requests:0.000} CPU ms and " +
            $"{spent.Allocated / 1024.0 / requests:0.0} KiB allocated per request, {requests} requests in " +
            $"{clock.Elapsed.TotalSeconds:0.0} s"));
    }

    private static async Task<int> CountAsync(BlobContainerClient outbox)
    {
        var count = 0;
        await foreach (var _ in outbox.GetBlobsAsync())
        {
            count++;
        }

        return count;
    }
}
