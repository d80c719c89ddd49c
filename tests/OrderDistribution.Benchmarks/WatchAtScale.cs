using System.Diagnostics;
using System.Globalization;
using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// What <c>order-load watch</c> costs the machine it runs on, as a user runs it: the built tool in a process of its own
/// under <c>/usr/bin/time -v</c>, against an Azurite into which this process stores a burst as the receivers do (a
/// fixed number of writes in flight, each blob with its stored time), in the order the orders were scheduled or, the
/// listing's worst case, in no order; then a second watch of the same burst, all of it stored before it starts.
/// </summary>
internal static class WatchAtScale
{
    private const int WritesInFlight = 32;

    public static async Task<int> RunAsync(int count, bool shuffled)
    {
        var folder = Directory.CreateTempSubdirectory("watch-at-scale").FullName;
        var orders = OrderGenerator.Generate(count, seed: 1, BurstId.New());
        var ordersFile = Path.Combine(folder, "orders.json");
        await OrderFile.WriteAsync(ordersFile, OrderSet.ValidOnly(orders), default);
        List<Order> arrivals = shuffled ? [.. orders.OrderBy(_ => Random.Shared.Next())] : orders;
        await using var azurite = await Azurite.StartAsync();
        var client = new BlobServiceClient(azurite.ConnectionString);
        foreach (var outbox in OrderTopology.Outboxes)
        {
            await client.GetBlobContainerClient(outbox).CreateIfNotExistsAsync();
        }

        var scheduledAt = DateTimeOffset.UtcNow;
        var watching = WatchAsync(azurite.ConnectionString, ordersFile, folder, scheduledAt);
        var clock = Stopwatch.StartNew();
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = WritesInFlight };
        await Parallel.ForEachAsync(arrivals, parallel, async (order, _) => await StoredOrders.StoreAsync(
            client, WatchExpectation.OutboxFor(order.Delivery), order, DateTimeOffset.UtcNow, createContainer: false));
        var stored = clock.Elapsed;
        var during = await watching;
        var how = shuffled ? "in no order" : "in order";
        Console.WriteLine(
            string.Create(CultureInfo.InvariantCulture,
            $"watch of {count} orders stored {how} over {stored.TotalSeconds:0} s, ")
                          + $"{WritesInFlight} writes in flight: {during.Line(count)}");

        var after = await WatchAsync(azurite.ConnectionString, ordersFile, folder, scheduledAt);
        Console.WriteLine($"watch of the same {count} orders, all stored before it starts: {after.Line(count)}");
        Directory.Delete(folder, recursive: true);
        return during.Exit == 0 && after.Exit == 0 ? 0 : 1;
    }

    /// <summary>
    /// The tool's own watch: its exit code, CPU-seconds (user and system), peak RSS and its result line.
    /// </summary>
    private static async Task<WatchCost> WatchAsync(
        string storage, string ordersFile, string folder, DateTimeOffset scheduledAt)
    {
        var start = new ProcessStartInfo("/usr/bin/time")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var arg in (string[])
                 [
                     "-v", "dotnet", Path.Combine(AppContext.BaseDirectory, "order-load.dll"), "watch",
                     "--storage", storage,
                     "--orders", ordersFile, "--state", Path.Combine(folder, "schedule.json"),
                     "--scheduled-at", scheduledAt.ToString("O", CultureInfo.InvariantCulture), "--timeout", "3600",
                 ])
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var time = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        var lines = time.Split('\n', StringSplitOptions.TrimEntries);
        double Figure(string name) => double.Parse(
            lines.First(l => l.StartsWith(name, StringComparison.Ordinal))[(name.Length + 1)..],
                CultureInfo.InvariantCulture);
        var cpu = Figure("User time (seconds):") + Figure("System time (seconds):");
        var peak = Figure("Maximum resident set size (kbytes):") * 1024 / 1e6;
        var result = (await output).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .LastOrDefault(l => l.Contains("orders stored", StringComparison.Ordinal)) ?? "(no result line)";
        return new WatchCost(process.ExitCode, cpu, peak, result);
    }

    private sealed record WatchCost(int Exit, double CpuSeconds, double PeakMegabytes, string Result)
    {
        public string Line(int count) =>
            string.Create(CultureInfo.InvariantCulture, $"exit {Exit}, {CpuSeconds:0.00} CPU-s ")
            + string.Create(CultureInfo.InvariantCulture, $"({CpuSeconds * 10_000 / count:0.00} per 10,000 orders), ")
            + string.Create(CultureInfo.InvariantCulture, $"peak RSS {PeakMegabytes:0} MB; {Result}");
    }
}
