using System.Diagnostics;
using System.Globalization;
using System.Text;
using Azure.Storage.Blobs;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.Messaging;
using OrderDistribution.Receiver;
using OrderDistribution.TestSupport;

namespace OrderDistribution.TrioHarness;

/// <summary>
/// The whole trio in-process (<see cref="EmulatedTrio"/>) behind the <see cref="EmulatedSidecar"/>, into a real
/// Azurite: the orders (and poison) go on the ingress queue at once, and the run ends when every message is done. Then
/// every blob is read back.
/// </summary>
public static class TrioRun
{
    public static async Task<TrioRunReport> RunAsync(TrioRunOptions options)
    {
        var orders = OrderGenerator.Generate(options.Orders, options.Seed);
        var (valid, poison) = MixInPoison(orders, options.PoisonRate, options.Seed);

        await using var azurite = await Azurite.StartAsync(options.AzuriteDataFolder);
        var distributorLogs = new LogRecorder();
        var receiverLogs = new LogRecorder();
        await using var trio = await EmulatedTrio.StartAsync(new EmulatedTrioOptions
        {
            StorageConnectionString = azurite.ConnectionString,
            Model = options.Model,
            Settings = options.Settings,
            Sidecar = new EmulatedSidecarOptions
            {
                PublishFailureRate = options.PublishFailureRate,
                DeliverEveryMessageTwice = options.DeliverEveryMessageTwice,
                ConcurrentSingleRequests = options.ConcurrentSingleRequests,
                RetryInterval = options.RetryInterval,
                ProcessingTimeout = options.ProcessingTimeout,
                Seed = options.Seed,
            },
            ConfigureLogging = (app, logging) =>
                InProcessApps.Log(logging, app == AppHost.Distributor ? distributorLogs : receiverLogs),
            ConfigureServices = options.WriteFailureRate > 0
                ? (member, services) =>
                {
                    if (member != AppHost.Distributor)
                    {
                        services.Replace(ServiceDescriptor.Singleton<IOrderStore>(provider =>
                            new FlakyOrderStore(provider.GetRequiredService<BlobOrderStore>(), options.WriteFailureRate,
                                options.Seed + member.Length)));
                    }
                }
            : null,
        });
        var sidecar = trio.Sidecar;
        var deadline = trio.Apps[0].Services
            .GetRequiredService<Microsoft.Extensions.Options.IOptions<MessagingOptions>>().Value.RequestDeadline;

        var clock = Stopwatch.StartNew();
        trio.Schedule(valid.Select(OrderJson.Serialize).Concat(poison));

        var quiet = await sidecar.WaitUntilQuietAsync(options.Timeout);
        clock.Stop();

        var blobs = await ReadOutboxesAsync(azurite.ConnectionString);
        // What the apps refused, as they kept it on the dead-letter queue (a DROP answer would be discarded).
        var letters = trio.DeadLetters.Select(l => DeadLetter.Read(l)!).ToList();
        var poisonTexts = poison.Select(Encoding.UTF8.GetString).ToHashSet();
        var validById = valid.ToDictionary(o => o.OrderId);
        var stored = valid.Count(o => blobs.TryGetValue(o.OrderId, out var copies) && copies.Count == 1
                                      && copies[0] == (ContainerOf(o), TestOrders.Json(o)));
        return new TrioRunReport(
            Orders: valid.Count + poison.Count,
            Valid: valid.Count,
            Stored: stored,
            Poison: poison.Count,
            PoisonDropped: letters.Select(l => l.Body).Where(poisonTexts.Contains).Distinct().Count(),
            Lost: valid.Count(o => !blobs.ContainsKey(o.OrderId)),
            Duplicated: blobs.Count(b => b.Value.Count > 1),
            Misplaced: blobs.Count(b => !validById.TryGetValue(b.Key, out var order)
                                        || b.Value.Any(copy => copy != (ContainerOf(order), TestOrders.Json(order)))),
            ValidDropped: sidecar.Queues.Values.Sum(t => t.Dropped)
                + letters.Count(l => !poisonTexts.Contains(l.Body)),
            DropStatuses: letters.Count,
            DropLogLines: distributorLogs.Lines.Count(l => l.Level == Microsoft.Extensions.Logging.LogLevel.Warning
                && l.Message.StartsWith("Dropped entry ", StringComparison.Ordinal)),
            Quiet: quiet,
            Elapsed: clock.Elapsed,
            LongestAnswer: sidecar.Queues.Values.Max(t => t.LongestAnswer),
            Deadline: deadline,
            Requests: sidecar.Queues.Values.Sum(t => t.Requests),
            Retries: sidecar.Queues.Values.Sum(t => t.Retried),
            PublishesRefused: sidecar.PublishesRefused,
            LogLines: distributorLogs.PrintedLines() + receiverLogs.PrintedLines(),
            PerQueue: string.Join("; ", sidecar.Queues.Select(t => string.Create(CultureInfo.InvariantCulture,
                $"{t.Key}: {t.Value.Requests} requests, longest {t.Value.LongestAnswer.TotalSeconds:0.00} s, " +
                $"{t.Value.WholeRequestsRedelivered} redelivered whole"))));
    }

    /// <summary>
    /// Replaces a share of the orders with poison of three kinds: unknown delivery, missing fields, not JSON.
    /// </summary>
    private static (List<Order> Valid, List<byte[]> Poison) MixInPoison(List<Order> orders, double rate, int seed)
    {
        var count = (int)Math.Round(orders.Count * rate);
        var chosen = orders.ToList();
        new Random(seed).Shuffle(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(chosen));
        var poisoned = chosen.Take(count).Select(o => o.OrderId).ToHashSet();
        var poison = orders.Where(o => poisoned.Contains(o.OrderId)).Select((o, i) => (i % 3) switch
        {
            0 => Encoding.UTF8.GetBytes(
                $$"""{"OrderId":{{o.OrderId}},"OrderGuid":"{{o.OrderGuid}}","Delivery":"Overnight"}"""),
            1 => Encoding.UTF8.GetBytes($$"""{"OrderId":{{o.OrderId}}}"""),
            _ => Encoding.UTF8.GetBytes($"order {o.OrderId}, but not as JSON"),
        }).ToList();
        return (orders.Where(o => !poisoned.Contains(o.OrderId)).ToList(), poison);
    }

    private static string ContainerOf(Order order) =>
        order.Delivery == Delivery.Express ? "express-outbox" : "standard-outbox";

    /// <summary>Every blob of both outboxes, by the order id it is named after: its container and content.</summary>
    private static async Task<Dictionary<long,
        List<(string Container, string Json)>>> ReadOutboxesAsync(string connectionString)
    {
        var client = new BlobServiceClient(connectionString);
        var found = new List<(long Id, string Container, BlobClient Blob)>();
        foreach (var name in new[] { "express-outbox", "standard-outbox" })
        {
            var container = client.GetBlobContainerClient(name);
            if (!await container.ExistsAsync())
            {
                continue;
            }

            await foreach (var blob in container.GetBlobsAsync())
            {
                found.Add((OrderBlob.OrderIdOf(blob.Name) ?? -1, name, container.GetBlobClient(blob.Name)));
            }
        }

        var contents = new (long Id, string Container, string Json)[found.Count];
        await Parallel.ForEachAsync(Enumerable.Range(0, found.Count),
            new ParallelOptions { MaxDegreeOfParallelism = 32 }, async (i, ct) =>
        {
            var (id, container, blob) = found[i];
            contents[i] = (id, container,
                TestOrders.Json(OrderJson.Deserialize((await blob.DownloadContentAsync(ct)).Value.Content.ToArray())));
        });
        return contents.GroupBy(c => c.Id).ToDictionary(g => g.Key, g => g.Select(c => (c.Container, c.Json)).ToList());
    }
}
