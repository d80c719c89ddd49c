// Measures what the apps themselves cost, without real sidecars or broker:
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks [-- [--console] <orders, default 10000>]
// 1. the whole trio in the bulk model: distributor -> receivers -> blobs in an on-disk Azurite, every blob checked:
//    "trio cold", the first burst on freshly started apps, then "trio to Azurite blobs", the next one;
// 2. distributor alone: decode, route, serialize and split into bulk publishes (publishes cost nothing);
// 3. single mode: the trio behind a Dapr double that delivers one message per request, as many at once per app
//    as run-local.sh's appMaxConcurrency lets the sidecar.
// Each trio line ends with the log lines the apps printed (Information and above, stack traces counted).
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- fault [<orders, default 10000>]
// The fault run: bulk model, 5% of publishes and 5% of blob writes failing, every message delivered twice,
// 1% poison; it ends with exactly the valid orders stored, and exits 1 if anything is lost or duplicated.
using System.Diagnostics;
using System.Globalization;
using Azure.Storage.Blobs;
using Dapr.Client;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using OrderDistribution.Benchmarks;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.Distributor;
using OrderDistribution.ServiceDefaults;
using OrderDistribution.LoadTool;
using OrderDistribution.Contracts;
using OrderDistribution.Receiver;
using OrderDistribution.TestSupport;

// --console: the apps also print their log lines, as they do under dapr run (send the output to a file).
InProcessApps.Console = args.Contains("--console");
args = [.. args.Where(a => a != "--console")];

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

var count = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 10_000;
var orders = OrderGenerator.Generate(count, seed: 1);
Console.WriteLine($"{count} orders, {orders.Average(o => OrderJson.Serialize(o).Length):0} bytes each on average, " +
                  $"ingress bulks of {BulkSize}, {ConcurrentBulks} at a time, {Environment.ProcessorCount} cores");

// First of all, while nothing has run in this process yet: the first burst on freshly started apps, which is
// every burst in Azure, where the receivers scale from zero. Then the next burst on the same apps.
var data = Directory.CreateTempSubdirectory("azurite-bench");
await using (var azurite = await Azurite.StartAsync(data.FullName))
{
    var logs = new LogRecorder();
    using var express = InProcessApps.Receiver("express", azurite.ConnectionString, logs);
    using var standard = InProcessApps.Receiver("standard", azurite.ConnectionString, logs);
    var sidecar = ForwardingSidecar.To(new Dictionary<string, HttpClient>
    {
        ["q-order-express"] = express.CreateClient(),
        ["q-order-standard"] = standard.CreateClient(),
    }, BulkSize);
    using var distributor = Distributor(sidecar, logs);
    await WaitUntilReadyAsync(express.CreateClient(), standard.CreateClient()); // the distributor's readiness asks a real sidecar

    var cold = await Measure("trio cold", distributor.CreateClient(), orders, logs);
    await ReportStoredAsync(azurite.ConnectionString, orders, cold.Started);
    var warm = await Measure("trio to Azurite blobs", distributor.CreateClient(), orders, logs);
    await ReportStoredAsync(azurite.ConnectionString, orders, warm.Started);
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  cold/warm: {cold.Elapsed / warm.Elapsed:0.00}"));
}

data.Delete(recursive: true);

using (var distributor = Distributor(ForwardingSidecar.Null(), new LogRecorder()))
{
    var client = distributor.CreateClient();
    await DeliverAsync(client, orders.Take(BulkSize).ToList()); // a new host: its first request
    await Measure("distributor alone", client, orders, logs: null);
}

var single = await TrioRun.RunAsync(new TrioRunOptions
{
    Orders = count, Style = DeliveryStyle.Single, AzuriteDataFolder = Directory.CreateTempSubdirectory("azurite-single").FullName,
});
Console.WriteLine(single.Line("single mode") + string.Create(CultureInfo.InvariantCulture, $", {count / single.Elapsed.TotalSeconds:0} orders/s"));
Console.WriteLine(single.Details);
return single.Proven ? 0 : 1;

static async Task<(TimeSpan Elapsed, DateTimeOffset Started)> Measure(string name, HttpClient distributor, List<Order> orders, LogRecorder? logs)
{
    // The sidecar builds the deliveries, not the apps: the first try of each is made before measuring.
    var bulks = orders.Chunk(BulkSize).Select(chunk => (Orders: chunk, Delivery: BulkDelivery.RawPayload(chunk, "q-order-ingress"))).ToList();
    var retried = 0;
    var linesBefore = logs?.PrintedLines() ?? 0;
    var allocated = GC.GetTotalAllocatedBytes(precise: true);
    var cpu = Process.GetCurrentProcess().TotalProcessorTime;
    var started = DateTimeOffset.UtcNow;
    var clock = Stopwatch.StartNew();
    await Parallel.ForEachAsync(bulks, new ParallelOptions { MaxDegreeOfParallelism = ConcurrentBulks },
        async (bulk, _) => Interlocked.Add(ref retried, await DeliverAsync(distributor, bulk.Orders, bulk.Delivery)));
    clock.Stop();
    allocated = GC.GetTotalAllocatedBytes(precise: true) - allocated;
    cpu = Process.GetCurrentProcess().TotalProcessorTime - cpu;

    var logLines = logs is null ? "" : string.Create(CultureInfo.InvariantCulture, $", {logs.PrintedLines() - linesBefore} log lines");
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"{name}: {orders.Count} orders in {clock.Elapsed.TotalSeconds:0.00} s, {orders.Count / clock.Elapsed.TotalSeconds:0} orders/s, " +
        $"{allocated / 1024.0 / orders.Count:0.0} KiB allocated per order, {cpu.TotalSeconds:0.0} CPU-s (the apps and this harness), " +
        $"peak working set {Process.GetCurrentProcess().PeakWorkingSet64 / 1024 / 1024} MiB, " +
        $"{retried} entries answered RETRY{logLines}"));
    return (clock.Elapsed, started);
}

// As the sidecar does (resiliency.yaml): what the app answers RETRY is delivered again a second later, on its own.
static async Task<int> DeliverAsync(HttpClient distributor, IReadOnlyList<Order> orders, (string Body, List<string> EntryIds)? first = null)
{
    const int Deliveries = 15;
    var retried = 0;
    for (var delivery = 1; ; delivery++)
    {
        var (body, entryIds) = delivery == 1 && first is { } built ? built : BulkDelivery.RawPayload(orders, "q-order-ingress");
        var statuses = await BulkDelivery.StatusesAsync(await distributor.PostAsync("/q-order-ingress-bulk", BulkDelivery.Json(body)));
        orders = orders.Where((_, i) => statuses[entryIds[i]] != "SUCCESS").ToList();
        if (orders.Count == 0)
        {
            return retried;
        }

        if (delivery == Deliveries)
        {
            throw new InvalidOperationException($"{orders.Count} entries were not SUCCESS after {Deliveries} deliveries");
        }

        retried += orders.Count;
        await Task.Delay(TimeSpan.FromSeconds(1));
    }
}

// The receivers start, and report ready, before a burst reaches them, as they do before the load tool schedules one.
static async Task WaitUntilReadyAsync(params HttpClient[] apps)
{
    foreach (var app in apps)
    {
        await Eventually.StatusAsync(app, ServiceDefaults.ReadinessPath, System.Net.HttpStatusCode.OK, TimeSpan.FromSeconds(30));
    }
}

// Every order of the burst, and none twice, is a blob stored since the burst started.
static async Task ReportStoredAsync(string connectionString, List<Order> orders, DateTimeOffset since)
{
    var outbox = new OutboxStorage(new BlobServiceClient(connectionString), OutboxStorage.DefaultOutboxes);
    var blobs = (await outbox.ListAsync(default)).Where(b => b.StoredAt >= since).ToList();
    var report = new OutboxWatcher(outbox, TimeSpan.Zero).Evaluate(orders.Select(o => o.OrderId).ToList(), since, blobs);
    Console.WriteLine($"  blobs: {orders.Count - report.Missing.Count}/{orders.Count} stored in this burst, {report.Duplicated.Count} duplicated");
}

static WebApplicationFactory<OrderRouter> Distributor(DaprClient sidecar, LogRecorder logs) =>
    InProcessApps.Distributor(logs, builder => builder.ConfigureServices(services => services.Replace(ServiceDescriptor.Singleton(sidecar))));
