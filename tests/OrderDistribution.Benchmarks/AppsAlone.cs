using System.Diagnostics;
using System.Globalization;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Ceiling;
using OrderDistribution.Storage;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// One app alone behind ASP.NET's in-memory test server, delivered to as the sidecar delivers; and storage alone.
/// </summary>
internal static class AppsAlone
{
    public const int BulkSize = 250;
    public const int ConcurrentBulks = 4;

    /// <summary>
    /// One app alone behind ASP.NET's in-memory test server, the burst's requests built before the clock starts.
    /// </summary>
    public static async Task Measure(string name, HttpClient app, List<Order> orders, string queue)
    {
        // The sidecar builds the requests, not the apps: the first try of each is made, down to the bytes sent, before
        // measuring.
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
            $"{name}: {orders.Count} orders in {clock.Elapsed.TotalSeconds:0.00} s, " +
            $"{orders.Count / clock.Elapsed.TotalSeconds:0} orders/s, " +
            $"{allocated / 1024.0 / orders.Count:0.0} KiB allocated per order, {cpu.TotalSeconds:0.0} CPU-s (the " +
            $"apps and this harness), " +
            $"peak working set {Process.GetCurrentProcess().PeakWorkingSet64 / 1024 / 1024} MiB, " +
            $"{retried} entries answered RETRY"));
    }

    /// <summary>
    /// As the sidecar does (resiliency.yaml): what the app answers RETRY is delivered again a second later, on its own.
    /// </summary>
    public static async Task<int> DeliverAsync(HttpClient app, IReadOnlyList<Order> orders, string queue,
        (HttpContent Body, List<string> EntryIds)? first = null)
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
                throw new InvalidOperationException(
                    $"{orders.Count} entries were not SUCCESS after {Requests} requests");
            }

            retried += orders.Count;
            await Task.Delay(TimeSpan.FromSeconds(1));
        }
    }

    /// <summary>
    /// A bulk request in the form the sidecar sends it, its body already encoded.
    /// </summary>
    public static (HttpContent Body, List<string> EntryIds) RequestOf(IEnumerable<Order> orders, string queue)
    {
        var (body, entryIds) = BulkRequest.RawPayload(orders, queue);
        return (BulkRequest.Json(body), entryIds);
    }

    /// <summary>
    /// Storage alone: the load tool's ceiling, the orders' blobs uploaded 64 at a time with no app around them.
    /// </summary>
    public static async Task<TimeSpan> MeasureStorageAlone(string connectionString, List<Order> orders)
    {
        var ceiling = StorageCeiling.Open(new StorageOptions { ConnectionString = connectionString });
        var before = GC.GetTotalAllocatedBytes(precise: true);
        var result = await ceiling.MeasureAsync(orders, 64, null, default);
        var allocated = (GC.GetTotalAllocatedBytes(precise: true) - before) / 1024.0 / orders.Count;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"storage alone: {orders.Count} blobs in {result.Elapsed.TotalSeconds:0.00} s, {result.Failed} failed, " +
            $"{allocated:0.0} KiB allocated per blob (the blob client's own)"));
        return result.Elapsed;
    }
}
