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
// which delivers one message per request, as many at once per app as run-local.sh's appMaxConcurrency lets the sidecar.
// Each trio line ends with the log lines the apps printed (Information and above, stack traces counted).
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- models [<orders; 10000>] [--telemetry]
// Each model's warm burst with each app in its own process: CPU per order each app handled, and calls to the sidecar.
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- requests [<orders, default 10000>]
// What one request per order costs the express receiver alone, in pubsub-single and bindings: each order stored, then
// only uploaded (without the store's pipeline around it), then with a store that keeps nothing (all but the upload), as
// configured and with request telemetry off (RequestsAlone).
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- scale [<orders>...; default 10000 100000]
// The scale line: at each count, storage alone and the warm trio (in its processes), each on a fresh Azurite on disk,
// and their ratio.
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- fault [<orders, default 10000>]
// The fault run: bulk model, 5% of publishes and 5% of blob writes failing, every message delivered twice,
// 1% poison; it ends with exactly the valid orders stored, and exits 1 if anything is lost or duplicated.
// dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- bindings-broker [<orders, default 10000>]
// [--as-configured] RabbitMQ alone (rabbitmq-server installed; a node of its own on free ports) driven the way
// bindings.rabbitmq drives it, per queue type and prefetch (--as-configured: only components-bindings' own): a burst
// through one queue with 4 consumers, what each consumer holds, how a backlog is shared and what a consumer crash
// redelivers (BindingsBroker; docs/brokers.md has the figures).
//   dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- watch [<orders, default 150000>] [--shuffled]
// What order-load watch costs its machine (CPU-s and peak RSS, by /usr/bin/time) while a burst is stored into Azurite,
// and then on the burst stored whole (WatchAtScale; docs/load-tool.md, "Watching at scale").
using System.Globalization;
using OrderDistribution.Benchmarks;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.Messaging;
using OrderDistribution.TestSupport;
using OrderDistribution.TrioHarness;

// --console: the apps also print their log lines, as they do under dapr run (send the output to a file).
InProcessApps.Console = args.Contains("--console");
args = [.. args.Where(a => a != "--console")];
if (args is ["app", var member, var sidecarAddress, var storage, var appModel, .. var appFlags])
{
    return await AppProcess.HostAsync(member, new Uri(sidecarAddress), storage, MessagingModels.Parse(appModel),
        AppProcess.StoreOf(appFlags));
}

if (args is ["requests", .. var requestCount])
{
    await RequestsAlone.Measure(
        requestCount.Length > 0 ? int.Parse(requestCount[0], CultureInfo.InvariantCulture) : 10_000);
    return 0;
}

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
        brokerCount.Count > 0 ? int.Parse(brokerCount[0], CultureInfo.InvariantCulture) : 10_000,
            brokerArgs.Contains("--as-configured"));
}

if (args is ["watch", .. var watchArgs])
{
    var watchCount = watchArgs.Where(a => a != "--shuffled").ToList();
    return await WatchAtScale.RunAsync(
        watchCount.Count > 0 ? int.Parse(watchCount[0], CultureInfo.InvariantCulture) : 150_000,
            watchArgs.Contains("--shuffled"));
}

if (args is ["cold", .. var coldCount])
{
    await TrioBursts.MeasureFirstBurst(
        OrderGenerator.Generate(coldCount.Length > 0 ? int.Parse(coldCount[0], CultureInfo.InvariantCulture) : 10_000,
        seed: 1));
    return 0;
}

if (args is ["models", .. var modelArgs])
{
    var modelCount = modelArgs.Where(a => a != "--telemetry").ToList();
    await TrioBursts.MeasureModels(
        OrderGenerator.Generate(modelCount.Count > 0 ? int.Parse(modelCount[0], CultureInfo.InvariantCulture) : 10_000,
        seed: 1), modelArgs.Contains("--telemetry"));
    return 0;
}

if (args is ["scale", .. var counts])
{
    foreach (var burst in (counts.Length > 0 ? counts.Select(c => int.Parse(c, CultureInfo.InvariantCulture)) : [10_000,
        100_000])
             .Select(c => OrderGenerator.Generate(c, seed: 1)))
    {
        await TrioBursts.MeasureScale(burst);
    }

    return 0;
}

var count = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 10_000;
var orders = OrderGenerator.Generate(count, seed: 1);
Console.WriteLine($"{count} orders, {orders.Average(o => OrderJson.Serialize(o).Length):0} bytes each on average, " +
                  $"ingress bulks of {AppsAlone.BulkSize}, {AppsAlone.ConcurrentBulks} at a time, " +
                  $"{Environment.ProcessorCount} cores");

await TrioBursts.MeasureFirstBurst(orders);

await using (var distributor = await InProcessApps.DistributorAsync(new LogRecorder()))
{
    using var client = InProcessApps.ClientOf(distributor);
    // a new host: its first request
    await AppsAlone.DeliverAsync(client, orders.Take(AppsAlone.BulkSize).ToList(), OrderTopology.IngressQueue);
    await AppsAlone.Measure("distributor alone", client, orders, OrderTopology.IngressQueue);
}

var receiverData = Directory.CreateTempSubdirectory("azurite-receiver");
await using (var azurite = await Azurite.StartAsync(receiverData.FullName))
{
    var express = orders.Where(o => o.Delivery == Delivery.Express).ToList();
    var queue = OrderTopology.QueueOf(OrderTopology.InstanceOf(Delivery.Express));
    await AppsAlone.MeasureStorageAlone(azurite.ConnectionString, express);
    await using var receiver = await InProcessApps.ReceiverAsync(azurite.ConnectionString, new LogRecorder());
    using var client = InProcessApps.ClientOf(receiver);
    // its first request
    await AppsAlone.DeliverAsync(client, BurstRounds.WithIdsOfTheirOwn(express.Take(AppsAlone.BulkSize), round: 1),
        queue);
    await AppsAlone.Measure("receiver alone", client, express, queue);
}

receiverData.Delete(recursive: true);

var single = await TrioRun.RunAsync(new TrioRunOptions
{
    Orders = count,
    Model = MessagingModel.PubSubSingle,
    AzuriteDataFolder = Directory.CreateTempSubdirectory("azurite-single").FullName,
});
Console.WriteLine(single.Line("single mode") +
    string.Create(CultureInfo.InvariantCulture, $", {count / single.Elapsed.TotalSeconds:0} orders/s"));
Console.WriteLine(single.Details);
return single.Proven ? 0 : 1;
