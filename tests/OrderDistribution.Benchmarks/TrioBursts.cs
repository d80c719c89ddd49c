using System.Diagnostics;
using System.Globalization;
using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Messaging;
using OrderDistribution.TrioHarness;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// The trio at scale, each app in a process of its own behind the emulator, on an on-disk Azurite: a burst timed until
/// every message is answered SUCCESS, and the blobs it stored checked.
/// </summary>
internal static class TrioBursts
{
    /// <summary>
    /// First, the first burst on freshly started apps, each in a process of its own as in every real run (and every
    /// burst in Azure on the replicas it adds); then the next burst on the same processes. The emulator
    /// and the store are warmed up before, by a burst through apps that then stop: a real sidecar is compiled ahead of
    /// time, and the store is warm in a real run's first burst too.
    /// </summary>
    public static async Task MeasureFirstBurst(List<Order> orders)
    {
        var data = Directory.CreateTempSubdirectory("azurite-bench");
        await using (var azurite = await Azurite.StartAsync(data.FullName))
        {
            var appStart = TimeSpan.FromSeconds(60);
            await using (var warmingUp = await TrioProcesses.StartAsync(azurite.ConnectionString, appStart))
            {
                warmingUp.Schedule(
                    BurstRounds.WithIdsOfTheirOwn(orders.Take(1_000), round: 1).Select(OrderJson.Serialize));
                await warmingUp.Sidecar.WaitUntilQuietAsync(TimeSpan.FromMinutes(2));
            }

            await using var trio = await TrioProcesses.StartAsync(azurite.ConnectionString, appStart);
            var startUp = await trio.StatsAsync();
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"trio start: every app ready {trio.StartUp.TotalSeconds:0.00} s after its process started; the apps " +
                $"{startUp.Sum(s => s.Cpu.TotalSeconds):0.0} CPU-s, " +
                $"{startUp.Sum(s => s.MethodsCompiled):N0} methods compiled in " +
                $"{startUp.Sum(s => s.JitTime.TotalSeconds):0.00} s"));
            var cold = await MeasureProcesses("trio cold", trio, orders);
            await ReportStoredAsync(azurite.ConnectionString, orders, cold.Started);
            // New blobs, as the cold burst wrote: overwriting them would cost the store more than writing them did.
            var next = BurstRounds.WithIdsOfTheirOwn(orders, round: 2);
            var warm = await MeasureProcesses("trio warm", trio, next);
            await ReportStoredAsync(azurite.ConnectionString, next, warm.Started);
            Console.WriteLine(
                string.Create(CultureInfo.InvariantCulture, $"  cold/warm: {cold.Elapsed / warm.Elapsed:0.00}"));
        }

        data.Delete(recursive: true);
    }

    /// <summary>
    /// Storage alone (the load tool's ceiling: the same blobs, 64 uploads in flight) and the warm trio, each on its own
    /// fresh Azurite on disk, at one count: the trio's time over storage's, and each app's working set.
    /// </summary>
    public static async Task MeasureScale(List<Order> orders)
    {
        TimeSpan alone;
        var aloneData = Directory.CreateTempSubdirectory("azurite-alone");
        await using (var azurite = await Azurite.StartAsync(aloneData.FullName))
        {
            alone = await AppsAlone.MeasureStorageAlone(azurite.ConnectionString, orders);
        }

        aloneData.Delete(recursive: true);
        var trioData = Directory.CreateTempSubdirectory("azurite-scale");
        await using (var azurite = await Azurite.StartAsync(trioData.FullName))
        {
            await using var trio = await TrioProcesses.StartAsync(azurite.ConnectionString, TimeSpan.FromSeconds(60));
            trio.Schedule(BurstRounds.WithIdsOfTheirOwn(orders.Take(1_000), round: 1).Select(OrderJson.Serialize));
            await trio.Sidecar.WaitUntilQuietAsync(TimeSpan.FromMinutes(2));
            var (elapsed, started) = await MeasureProcesses($"trio at {orders.Count}", trio, orders);
            await ReportStoredAsync(azurite.ConnectionString, orders, started);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  scale {orders.Count}: trio {elapsed.TotalSeconds:0.0} s, storage alone {alone.TotalSeconds:0.0} " +
                $"s, trio / storage alone {elapsed / alone:0.00}"));
        }

        trioData.Delete(recursive: true);
    }

    /// <summary>
    /// Each model's warm burst with each app in its own process, each model on a fresh on-disk Azurite: what each app
    /// spends per order (the CPU a real sidecar and broker add is not here) and the calls the apps make to the sidecar
    /// per order. A store that already holds the models before slows as it fills, and a receiver's CPU per order
    /// follows the store's pace, so one store for all would charge the last model for the first ones' blobs. With
    /// <paramref name="telemetry"/> the apps send their telemetry to a <see cref="TelemetryIngestion"/>, as in Azure:
    /// their CPU includes it, and the line adds what they sent per order.
    /// </summary>
    public static async Task MeasureModels(List<Order> orders, bool telemetry)
    {
        await using var ingestion = telemetry ? await TelemetryIngestion.StartAsync() : null;
        foreach (var model in new[] { MessagingModel.PubSubBulk, MessagingModel.PubSubSingle,
            MessagingModel.Bindings })
        {
            var data = Directory.CreateTempSubdirectory("azurite-models");
            await using (var azurite = await Azurite.StartAsync(data.FullName))
            {
                await using var trio = await TrioProcesses.StartAsync(azurite.ConnectionString,
                    TimeSpan.FromSeconds(60), model, recordRequests: true, ingestion?.ConnectionString);
                trio.Schedule(BurstRounds.WithIdsOfTheirOwn(orders.Take(1_000), round: 1).Select(OrderJson.Serialize));
                await trio.Sidecar.WaitUntilQuietAsync(TimeSpan.FromMinutes(2));
                var burst = BurstRounds.WithIdsOfTheirOwn(orders, round: 2);
                var calls = trio.Sidecar.Requests.Count;
                var before = await trio.StatsAsync();
                var sentBefore = ingestion?.Received();
                await MeasureProcesses($"{model.Text()} warm", trio, burst);
                var spent = (await trio.StatsAsync()).Zip(before, (after, b) => after - b).ToList();
                var sent = ingestion is null ? "" : "; telemetry per order " +
                    TelemetryIngestion.PerOrder(ingestion.Received(), sentBefore!, burst.Count);
                var perOrder = string.Join(", ",
                    trio.Apps.Zip(spent, (app, cost) => string.Create(CultureInfo.InvariantCulture,
                    $"{app.Member} {cost.Cpu.TotalMilliseconds / OrdersOf(app.Member, burst):0.00} ms")));
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  {model.Text()}: CPU per order each app handled: {perOrder}; " +
                    $"calls to the sidecar per order " +
                    $"{(trio.Sidecar.Requests.Count - calls) / (double)burst.Count:0.000}{sent}"));
            }

            data.Delete(recursive: true);
        }
    }

    /// <summary>
    /// The burst goes on the ingress queue at once; it ends when the emulator has every message answered SUCCESS (each
    /// order a blob). CPU, allocation, JIT and working set are each app process's own; allocation is per order of the
    /// burst (each receiver stores about half of them), so the apps' figures add up to what the trio allocates per
    /// order.
    /// </summary>
    public static async Task<(TimeSpan Elapsed, DateTimeOffset Started)> MeasureProcesses(string name,
        TrioProcesses trio, List<Order> orders)
    {
        var payloads = orders.Select(OrderJson.Serialize).ToList();
        var before = await trio.StatsAsync();
        var emulatorCpu = Process.GetCurrentProcess().TotalProcessorTime;
        var retriedBefore = trio.Sidecar.Queues.Values.Sum(t => t.Retried);
        var started = DateTimeOffset.UtcNow;
        var clock = Stopwatch.StartNew();
        trio.Schedule(payloads);
        if (!await trio.Sidecar.WaitUntilQuietAsync(TimeSpan.FromMinutes(10)))
        {
            throw new TimeoutException($"{name}: messages were still outstanding after 10 minutes");
        }

        clock.Stop();
        emulatorCpu = Process.GetCurrentProcess().TotalProcessorTime - emulatorCpu;
        var burst = (await trio.StatsAsync()).Zip(before, (after, b) => after - b).ToList();
        var perApp = string.Join("; ", trio.Apps.Zip(burst, (app, cost) => string.Create(CultureInfo.InvariantCulture,
            $"{app.Member} {cost.Cpu.TotalSeconds:0.0} CPU-s, {cost.MethodsCompiled:N0} methods in " +
            $"{cost.JitTime.TotalSeconds:0.00} s, " +
            $"{cost.Allocated / 1024.0 / orders.Count:0.0} KiB/order, peak {cost.PeakWorkingSet / 1024 / 1024} MiB")));
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{name}: {orders.Count} orders in {clock.Elapsed.TotalSeconds:0.00} s, " +
            $"{orders.Count / clock.Elapsed.TotalSeconds:0} orders/s; " +
            $"the apps {burst.Sum(c => c.Cpu.TotalSeconds):0.0} CPU-s, " +
            $"{burst.Sum(c => c.Allocated) / 1024.0 / orders.Count:0.0} KiB allocated per order, " +
            $"{burst.Sum(c => c.MethodsCompiled):N0} methods compiled in " +
            $"{burst.Sum(c => c.JitTime.TotalSeconds):0.00} s ({perApp}); " +
            $"the emulator {emulatorCpu.TotalSeconds:0.0} CPU-s; " +
            $"{trio.Sidecar.Queues.Values.Sum(t => t.Retried) - retriedBefore} entries answered RETRY, " +
            $"{burst.Sum(c => c.LogLines)} log lines"));
        return (clock.Elapsed, started);
    }

    /// <summary>
    /// The orders an app handles: the distributor every one, a receiver those of its delivery.
    /// </summary>
    public static int OrdersOf(string member, List<Order> orders) =>
        member == AppHost.Distributor ? orders.Count : orders.Count(o =>
            OrderTopology.InstanceOf(o.Delivery) == member);

    /// <summary>
    /// Every order of the burst, and none twice, is a blob stored since the burst started.
    /// </summary>
    public static async Task ReportStoredAsync(string connectionString, List<Order> orders, DateTimeOffset since)
    {
        var outbox = new OutboxStorage(new BlobServiceClient(connectionString), OrderTopology.Outboxes);
        var blobs = new List<OutboxBlob>();
        foreach (var container in outbox.Outboxes)
        {
            string? continuation = null;
            do
            {
                var page = await outbox.ListPageAsync(container, "", continuation, OutboxStorage.PageSize,
                    storedTimes: true, default);
                blobs.AddRange(page.Blobs.Where(b => b.StoredAt >= since));
                continuation = page.Continuation;
            }
            while (continuation is not null);
        }

        var report = WatchTally.Of(WatchExpectation.For(OrderSet.ValidOnly(orders)), OrderTopology.Outboxes, since,
            blobs);
        Console.WriteLine(
            $"  blobs: {orders.Count - report.Missing.Count}/{orders.Count} stored in this burst, " +
            $"{report.Duplicated.Count} duplicated");
    }
}
