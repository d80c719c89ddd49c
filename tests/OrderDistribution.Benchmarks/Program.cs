// Measures what the apps themselves cost, without real sidecars or broker:
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks [-- [--console] <orders, default 10000>]
// Published for linux-x64 (dotnet publish -c Release -r linux-x64), it runs the apps as their images do: ReadyToRun,
// tiered compilation off.
// 1. the whole trio in the bulk model: distributor -> receivers -> blobs in an on-disk Azurite, every blob checked,
//    each app in a process of its own behind the sidecar emulator (src/OrderDistribution.SidecarEmulator) in this one:
//    "trio start", "trio cold", the first burst on the freshly started apps, then "trio warm", the next one;
//    `-- cold [<orders>]` runs only these;
// 2. distributor alone: decode, route, serialize and split into bulk publishes (publishes cost nothing);
//    receiver alone: the express orders in bulk deliveries to the express receiver, each stored in Azurite, beside
//    storage alone (the same uploads with no app around them): what the receiver adds to the blob client's own;
// 3. single mode: the trio in this process (EmulatedTrio, as `order-load in-process` hosts it) behind the emulator,
//    which delivers one message per request, as many at once per app as run-local.sh's appMaxConcurrency lets the sidecar.
// Each trio line ends with the log lines the apps printed (Information and above, stack traces counted).
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- scale [<orders>...; default 10000 100000]
// The scale line: at each count, storage alone and the warm trio (in its processes), each on a fresh Azurite on disk,
// and their ratio.
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- fault [<orders, default 10000>]
// The fault run: bulk model, 5% of publishes and 5% of blob writes failing, every message delivered twice,
// 1% poison; it ends with exactly the valid orders stored, and exits 1 if anything is lost or duplicated.
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- bindings-broker [<orders, default 10000>] [--as-configured]
// RabbitMQ alone (rabbitmq-server installed; a node of its own on free ports) driven the way bindings.rabbitmq drives
// it, per queue type and prefetch (--as-configured: only components-bindings' own): a burst through one queue with 4
// consumers, what each consumer holds, how a backlog is shared and what a consumer crash redelivers (BindingsBroker;
// docs/brokers.md has the figures).
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- watch [<orders, default 150000>] [--shuffled]
// What order-load watch costs its machine (CPU-s and peak RSS, by /usr/bin/time) while a burst is stored into Azurite,
// and then on the burst stored whole (WatchAtScale; docs/load-tool.md, "Watching at scale").
using System.Diagnostics;
using System.Globalization;
using Azure.Storage.Blobs;
using OrderDistribution.Benchmarks;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Ceiling;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Messaging;
using OrderDistribution.Storage;
using OrderDistribution.TestSupport;

// --console: the apps also print their log lines, as they do under dapr run (send the output to a file).
InProcessApps.Console = args.Contains("--console");
args = [.. args.Where(a => a != "--console")];
if (args is ["app", var member, var sidecarAddress, var storage, var appModel])
{
    return await AppProcess.HostAsync(member, new Uri(sidecarAddress), storage, MessagingModels.Parse(appModel));
}

const int BulkSize = 250;
const int ConcurrentBulks = 4;
if (args is ["fault", .. var rest])
{
    var report = await TrioRun.RunAsync(new TrioRunOptions
    {
        Orders = rest.Length > 0 ? int.Parse(rest[0], CultureInfo.InvariantCulture) : 10_000,
        PublishFailureRate = 0.05,
        WriteFailureRate = 0.05,
        DeliverEveryMessageTwice = true,
        PoisonRate = 0.01,
        AzuriteDataFolder = Directory.CreateTempSubdirectory("azurite-fault").FullName,
    });
    Console.WriteLine(report.Details);
    Console.WriteLine(report.Line("fault run"));
    return report.Proven ? 0 : 1;
}

if (args is ["bindings-broker", .. var brokerArgs])
{
    var brokerCount = brokerArgs.Where(a => a != "--as-configured").ToList();
    return await BindingsBroker.RunAsync(
        brokerCount.Count > 0 ? int.Parse(brokerCount[0], CultureInfo.InvariantCulture) : 10_000, brokerArgs.Contains("--as-configured"));
}

if (args is ["watch", .. var watchArgs])
{
    var watchCount = watchArgs.Where(a => a != "--shuffled").ToList();
    return await WatchAtScale.RunAsync(
        watchCount.Count > 0 ? int.Parse(watchCount[0], CultureInfo.InvariantCulture) : 150_000, watchArgs.Contains("--shuffled"));
}

if (args is ["cold", .. var coldCount])
{
    await MeasureFirstBurst(OrderGenerator.Generate(coldCount.Length > 0 ? int.Parse(coldCount[0], CultureInfo.InvariantCulture) : 10_000, seed: 1));
    return 0;
}

if (args is ["models", .. var modelCount])
{
    await MeasureModels(OrderGenerator.Generate(modelCount.Length > 0 ? int.Parse(modelCount[0], CultureInfo.InvariantCulture) : 10_000, seed: 1));
    return 0;
}

if (args is ["scale", .. var counts])
{
    foreach (var burst in (counts.Length > 0 ? counts.Select(c => int.Parse(c, CultureInfo.InvariantCulture)) : [10_000, 100_000])
             .Select(c => OrderGenerator.Generate(c, seed: 1)))
    {
        await MeasureScale(burst);
    }

    return 0;
}

var count = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 10_000;
var orders = OrderGenerator.Generate(count, seed: 1);
Console.WriteLine($"{count} orders, {orders.Average(o => OrderJson.Serialize(o).Length):0} bytes each on average, " +
                  $"ingress bulks of {BulkSize}, {ConcurrentBulks} at a time, {Environment.ProcessorCount} cores");

await MeasureFirstBurst(orders);

await using (var distributor = await InProcessApps.DistributorAsync(new LogRecorder()))
{
    using var client = InProcessApps.ClientOf(distributor);
    await DeliverAsync(client, orders.Take(BulkSize).ToList(), OrderTopology.IngressQueue); // a new host: its first request
    await Measure("distributor alone", client, orders, OrderTopology.IngressQueue);
}

var receiverData = Directory.CreateTempSubdirectory("azurite-receiver");
await using (var azurite = await Azurite.StartAsync(receiverData.FullName))
{
    var express = orders.Where(o => o.Delivery == Delivery.Express).ToList();
    var queue = OrderTopology.QueueOf(OrderTopology.InstanceOf(Delivery.Express));
    await MeasureStorageAlone(azurite.ConnectionString, express);
    await using var receiver = await InProcessApps.ReceiverAsync(azurite.ConnectionString, new LogRecorder());
    using var client = InProcessApps.ClientOf(receiver);
    await DeliverAsync(client, WithIdsOfTheirOwn(express.Take(BulkSize), round: 1), queue); // its first request
    await Measure("receiver alone", client, express, queue);
}

receiverData.Delete(recursive: true);

var single = await TrioRun.RunAsync(new TrioRunOptions
{
    Orders = count,
    Model = MessagingModel.PubSubSingle,
    AzuriteDataFolder = Directory.CreateTempSubdirectory("azurite-single").FullName,
});
Console.WriteLine(single.Line("single mode") + string.Create(CultureInfo.InvariantCulture, $", {count / single.Elapsed.TotalSeconds:0} orders/s"));
Console.WriteLine(single.Details);
return single.Proven ? 0 : 1;

// First, the first burst on freshly started apps, each in a process of its own as in every real run (and every
// burst in Azure, where the receivers scale from zero); then the next burst on the same processes. The emulator and
// the store are warmed up before, by a burst through apps that then stop: a real sidecar is compiled ahead of time,
// and the store is warm in a real run's first burst too.
static async Task MeasureFirstBurst(List<Order> orders)
{
    var data = Directory.CreateTempSubdirectory("azurite-bench");
    await using (var azurite = await Azurite.StartAsync(data.FullName))
    {
        var appStart = TimeSpan.FromSeconds(60);
        await using (var warmingUp = await TrioProcesses.StartAsync(azurite.ConnectionString, appStart))
        {
            warmingUp.Schedule(WithIdsOfTheirOwn(orders.Take(1_000), round: 1).Select(OrderJson.Serialize));
            await warmingUp.Sidecar.WaitUntilQuietAsync(TimeSpan.FromMinutes(2));
        }

        await using var trio = await TrioProcesses.StartAsync(azurite.ConnectionString, appStart);
        var startUp = await trio.StatsAsync();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"trio start: every app ready {trio.StartUp.TotalSeconds:0.00} s after its process started; the apps {startUp.Sum(s => s.Cpu.TotalSeconds):0.0} CPU-s, " +
            $"{startUp.Sum(s => s.MethodsCompiled):N0} methods compiled in {startUp.Sum(s => s.JitTime.TotalSeconds):0.00} s"));
        var cold = await MeasureProcesses("trio cold", trio, orders);
        await ReportStoredAsync(azurite.ConnectionString, orders, cold.Started);
        // New blobs, as the cold burst wrote: overwriting them would cost the store more than writing them did.
        var next = WithIdsOfTheirOwn(orders, round: 2);
        var warm = await MeasureProcesses("trio warm", trio, next);
        await ReportStoredAsync(azurite.ConnectionString, next, warm.Started);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  cold/warm: {cold.Elapsed / warm.Elapsed:0.00}"));
    }

    data.Delete(recursive: true);
}

// Storage alone (the load tool's ceiling: the same blobs, 64 uploads in flight) and the warm trio, each on its own
// fresh Azurite on disk, at one count: the trio's time over storage's, and each app's working set.
static async Task MeasureScale(List<Order> orders)
{
    TimeSpan alone;
    var aloneData = Directory.CreateTempSubdirectory("azurite-alone");
    await using (var azurite = await Azurite.StartAsync(aloneData.FullName))
    {
        alone = await MeasureStorageAlone(azurite.ConnectionString, orders);
    }

    aloneData.Delete(recursive: true);
    var trioData = Directory.CreateTempSubdirectory("azurite-scale");
    await using (var azurite = await Azurite.StartAsync(trioData.FullName))
    {
        await using var trio = await TrioProcesses.StartAsync(azurite.ConnectionString, TimeSpan.FromSeconds(60));
        trio.Schedule(WithIdsOfTheirOwn(orders.Take(1_000), round: 1).Select(OrderJson.Serialize));
        await trio.Sidecar.WaitUntilQuietAsync(TimeSpan.FromMinutes(2));
        var (elapsed, started) = await MeasureProcesses($"trio at {orders.Count}", trio, orders);
        await ReportStoredAsync(azurite.ConnectionString, orders, started);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  scale {orders.Count}: trio {elapsed.TotalSeconds:0.0} s, storage alone {alone.TotalSeconds:0.0} s, trio / storage alone {elapsed / alone:0.00}"));
    }

    trioData.Delete(recursive: true);
}

// Each model's warm burst with each app in its own process, on one on-disk Azurite: what each app spends per order
// (the CPU a real sidecar and broker add is not here) and the calls the apps make to the sidecar per order.
static async Task MeasureModels(List<Order> orders)
{
    var data = Directory.CreateTempSubdirectory("azurite-models");
    await using (var azurite = await Azurite.StartAsync(data.FullName))
    {
        var round = 1;
        foreach (var model in new[] { MessagingModel.PubSubBulk, MessagingModel.PubSubSingle, MessagingModel.Bindings })
        {
            await using var trio = await TrioProcesses.StartAsync(azurite.ConnectionString, TimeSpan.FromSeconds(60), model, recordRequests: true);
            trio.Schedule(WithIdsOfTheirOwn(orders.Take(1_000), round++).Select(OrderJson.Serialize));
            await trio.Sidecar.WaitUntilQuietAsync(TimeSpan.FromMinutes(2));
            var burst = WithIdsOfTheirOwn(orders, round++);
            var calls = trio.Sidecar.Requests.Count;
            var before = await trio.StatsAsync();
            await MeasureProcesses($"{model.Text()} warm", trio, burst);
            var spent = (await trio.StatsAsync()).Zip(before, (after, b) => after - b).ToList();
            var perOrder = string.Join(", ", trio.Apps.Zip(spent, (app, cost) => string.Create(CultureInfo.InvariantCulture,
                $"{app.Member} {cost.Cpu.TotalMilliseconds / OrdersOf(app.Member, burst):0.00} ms")));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {model.Text()}: CPU per order each app handled: {perOrder}; " +
                $"calls to the sidecar per order {(trio.Sidecar.Requests.Count - calls) / (double)burst.Count:0.000}"));
        }
    }

    data.Delete(recursive: true);
}

// The orders an app handles: the distributor every one, a receiver those of its delivery.
static int OrdersOf(string member, List<Order> orders) =>
    member == AppHost.Distributor ? orders.Count : orders.Count(o => OrderTopology.InstanceOf(o.Delivery) == member);

// The same orders with ids of their own, one range per round (ids no generated burst uses): a warm-up that goes the
// way the burst's orders will go (stored, not dropped as invalid), or a next burst that writes new blobs.
static List<Order> WithIdsOfTheirOwn(IEnumerable<Order> orders, int round) =>
    [.. orders.Select(o => o with { OrderId = o.OrderId + round * 1_000_000_000_000 })];

// Storage alone: the load tool's ceiling, the orders' blobs uploaded 64 at a time with no app around them.
static async Task<TimeSpan> MeasureStorageAlone(string connectionString, List<Order> orders)
{
    var ceiling = StorageCeiling.Open(new StorageOptions { ConnectionString = connectionString });
    var before = GC.GetTotalAllocatedBytes(precise: true);
    var result = await ceiling.MeasureAsync(orders, 64, null, default);
    var allocated = (GC.GetTotalAllocatedBytes(precise: true) - before) / 1024.0 / orders.Count;
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"storage alone: {orders.Count} blobs in {result.Elapsed.TotalSeconds:0.00} s, {result.Failed} failed, {allocated:0.0} KiB allocated per blob (the blob client's own)"));
    return result.Elapsed;
}

// The burst goes on the ingress queue at once; it ends when the emulator has every message answered SUCCESS (each
// order a blob). CPU, allocation, JIT and working set are each app process's own; allocation is per order of the
// burst (each receiver stores about half of them), so the apps' figures add up to what the trio allocates per order.
static async Task<(TimeSpan Elapsed, DateTimeOffset Started)> MeasureProcesses(string name, TrioProcesses trio, List<Order> orders)
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
        $"{app.Member} {cost.Cpu.TotalSeconds:0.0} CPU-s, {cost.MethodsCompiled:N0} methods in {cost.JitTime.TotalSeconds:0.00} s, " +
        $"{cost.Allocated / 1024.0 / orders.Count:0.0} KiB/order, peak {cost.PeakWorkingSet / 1024 / 1024} MiB")));
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"{name}: {orders.Count} orders in {clock.Elapsed.TotalSeconds:0.00} s, {orders.Count / clock.Elapsed.TotalSeconds:0} orders/s; " +
        $"the apps {burst.Sum(c => c.Cpu.TotalSeconds):0.0} CPU-s, {burst.Sum(c => c.Allocated) / 1024.0 / orders.Count:0.0} KiB allocated per order, " +
        $"{burst.Sum(c => c.MethodsCompiled):N0} methods compiled in {burst.Sum(c => c.JitTime.TotalSeconds):0.00} s ({perApp}); " +
        $"the emulator {emulatorCpu.TotalSeconds:0.0} CPU-s; {trio.Sidecar.Queues.Values.Sum(t => t.Retried) - retriedBefore} entries answered RETRY, " +
        $"{burst.Sum(c => c.LogLines)} log lines"));
    return (clock.Elapsed, started);
}

// One app alone behind ASP.NET's in-memory test server, the burst's requests built before the clock starts.
static async Task Measure(string name, HttpClient app, List<Order> orders, string queue)
{
    // The sidecar builds the requests, not the apps: the first try of each is made, down to the bytes sent, before measuring.
    var bulks = orders.Chunk(BulkSize).Select(chunk => (Orders: chunk, Request: RequestOf(chunk, queue))).ToList();
    var retried = 0;
    var allocated = GC.GetTotalAllocatedBytes(precise: true);
    var cpu = Process.GetCurrentProcess().TotalProcessorTime;
    var clock = Stopwatch.StartNew();
    await Parallel.ForEachAsync(bulks, new ParallelOptions { MaxDegreeOfParallelism = ConcurrentBulks },
        async (bulk, _) => Interlocked.Add(ref retried, await DeliverAsync(app, bulk.Orders, queue, bulk.Request)));
    clock.Stop();
    allocated = GC.GetTotalAllocatedBytes(precise: true) - allocated;
    cpu = Process.GetCurrentProcess().TotalProcessorTime - cpu;

    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"{name}: {orders.Count} orders in {clock.Elapsed.TotalSeconds:0.00} s, {orders.Count / clock.Elapsed.TotalSeconds:0} orders/s, " +
        $"{allocated / 1024.0 / orders.Count:0.0} KiB allocated per order, {cpu.TotalSeconds:0.0} CPU-s (the apps and this harness), " +
        $"peak working set {Process.GetCurrentProcess().PeakWorkingSet64 / 1024 / 1024} MiB, " +
        $"{retried} entries answered RETRY"));
}

// As the sidecar does (resiliency.yaml): what the app answers RETRY is delivered again a second later, on its own.
static async Task<int> DeliverAsync(HttpClient app, IReadOnlyList<Order> orders, string queue, (HttpContent Body, List<string> EntryIds)? first = null)
{
    const int Requests = 15;
    var retried = 0;
    for (var attempt = 1; ; attempt++)
    {
        var (body, entryIds) = attempt == 1 && first is { } built ? built : RequestOf(orders, queue);
        var statuses = await BulkRequest.StatusesAsync(await app.PostAsync($"/{queue}-bulk", body));
        orders = orders.Where((_, i) => statuses[entryIds[i]] != "SUCCESS").ToList();
        if (orders.Count == 0)
        {
            return retried;
        }

        if (attempt == Requests)
        {
            throw new InvalidOperationException($"{orders.Count} entries were not SUCCESS after {Requests} requests");
        }

        retried += orders.Count;
        await Task.Delay(TimeSpan.FromSeconds(1));
    }
}

// A bulk request in the form the sidecar sends it, its body already encoded.
static (HttpContent Body, List<string> EntryIds) RequestOf(IEnumerable<Order> orders, string queue)
{
    var (body, entryIds) = BulkRequest.RawPayload(orders, queue);
    return (BulkRequest.Json(body), entryIds);
}

// Every order of the burst, and none twice, is a blob stored since the burst started.
static async Task ReportStoredAsync(string connectionString, List<Order> orders, DateTimeOffset since)
{
    var outbox = new OutboxStorage(new BlobServiceClient(connectionString), OrderTopology.Outboxes);
    var blobs = new List<OutboxBlob>();
    foreach (var container in outbox.Outboxes)
    {
        string? continuation = null;
        do
        {
            var page = await outbox.ListPageAsync(container, "", continuation, OutboxStorage.PageSize, storedTimes: true, default);
            blobs.AddRange(page.Blobs.Where(b => b.StoredAt >= since));
            continuation = page.Continuation;
        }
        while (continuation is not null);
    }

    var report = WatchTally.Of(WatchExpectation.For(OrderSet.ValidOnly(orders)), OrderTopology.Outboxes, since, blobs);
    Console.WriteLine($"  blobs: {orders.Count - report.Missing.Count}/{orders.Count} stored in this burst, {report.Duplicated.Count} duplicated");
}
