// Measures what the apps themselves cost, without real sidecars or broker:
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks [-- <orders, default 10000>]
// 1. distributor alone: decode, route, serialize and split into bulk publishes (publishes cost nothing);
// 2. the whole trio in the bulk model: distributor -> receivers -> blobs in an on-disk Azurite, every blob checked;
// 3. single mode: the trio behind a Dapr double that delivers one message per request, 500 at once per app.
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- fault [<orders, default 10000>]
// The fault run: bulk model, 5% of publishes and 5% of blob writes failing, every message delivered twice,
// 1% poison; it ends with exactly the valid orders stored, and exits 1 if anything is lost or duplicated.
using System.Diagnostics;
using System.Globalization;
using Azure.Storage.Blobs;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using OrderDistribution.Benchmarks;
using OrderDistribution.Dapr;
using OrderDistribution.Distributor;
using OrderDistribution.LoadTool;
using OrderDistribution.Orders;
using OrderDistribution.Receiver;
using OrderDistribution.TestSupport;

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

using (var distributor = Distributor(new NullSidecar()))
{
    await Measure("distributor alone", distributor.CreateClient(), orders);
}

var data = Directory.CreateTempSubdirectory("azurite-bench");
await using (var azurite = await Azurite.StartAsync(data.FullName))
{
    using var express = Receiver("express", azurite.ConnectionString);
    using var standard = Receiver("standard", azurite.ConnectionString);
    var sidecar = new ForwardingSidecar(new Dictionary<string, HttpClient>
    {
        ["q-order-express"] = express.CreateClient(),
        ["q-order-standard"] = standard.CreateClient(),
    }, BulkSize);
    using var distributor = Distributor(sidecar);
    await Measure("trio to Azurite blobs", distributor.CreateClient(), orders);

    var outbox = new OutboxStorage(new BlobServiceClient(azurite.ConnectionString), OutboxStorage.DefaultOutboxes);
    var report = new OutboxWatcher(outbox, TimeSpan.Zero).Evaluate(
        orders.Select(o => o.OrderId).ToList(), DateTimeOffset.UtcNow, await outbox.ListAsync(default));
    Console.WriteLine($"  blobs: {count - report.Missing.Count}/{count} stored, {report.Duplicated.Count} duplicated");
}

data.Delete(recursive: true);

var single = await TrioRun.RunAsync(new TrioRunOptions
{
    Orders = count, Style = DeliveryStyle.Single, AzuriteDataFolder = Directory.CreateTempSubdirectory("azurite-single").FullName,
});
Console.WriteLine(single.Line("single mode") + string.Create(CultureInfo.InvariantCulture, $", {count / single.Elapsed.TotalSeconds:0} orders/s"));
Console.WriteLine(single.Details);
return single.Proven ? 0 : 1;

static async Task Measure(string name, HttpClient distributor, List<Order> orders)
{
    var bulks = orders.Chunk(BulkSize).Select(b => BulkDelivery.RawPayload(b, "q-order-ingress")).ToList();
    await Post(distributor, bulks[0]); // warm-up: JIT, connections, containers

    var allocated = GC.GetTotalAllocatedBytes(precise: true);
    var clock = Stopwatch.StartNew();
    await Parallel.ForEachAsync(bulks, new ParallelOptions { MaxDegreeOfParallelism = ConcurrentBulks },
        async (bulk, _) => await Post(distributor, bulk));
    clock.Stop();
    allocated = GC.GetTotalAllocatedBytes(precise: true) - allocated;

    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"{name}: {orders.Count} orders in {clock.Elapsed.TotalSeconds:0.00} s, {orders.Count / clock.Elapsed.TotalSeconds:0} orders/s, " +
        $"{allocated / 1024.0 / orders.Count:0.0} KiB allocated per order, peak working set {Process.GetCurrentProcess().PeakWorkingSet64 / 1024 / 1024} MiB"));
}

static async Task Post(HttpClient distributor, (string Body, List<string> EntryIds) bulk)
{
    var response = await distributor.PostAsync("/q-order-ingress-bulk", BulkDelivery.Json(bulk.Body));
    var statuses = await BulkDelivery.StatusesAsync(response);
    if (statuses.Values.Any(s => s != "SUCCESS"))
    {
        throw new InvalidOperationException($"{statuses.Values.Count(s => s != "SUCCESS")} entries were not SUCCESS");
    }
}

static WebApplicationFactory<OrderRouter> Distributor(IDaprPublisher sidecar) =>
    InProcessApps.Distributor(builder => builder.ConfigureServices(services => services.Replace(ServiceDescriptor.Singleton(sidecar))));

static WebApplicationFactory<BlobOrderStore> Receiver(string instance, string connectionString) =>
    InProcessApps.Receiver(instance, connectionString);
