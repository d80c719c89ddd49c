using System.CommandLine;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Ceiling;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.Receiver;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>ceiling</c>: storage alone, the best any model can do; one row in the results log and its per-second series.</summary>
internal static class CeilingCommand
{
    private static readonly Option<int> Uploads = new Option<int>("--count")
    {
        Description = "How many order blobs to upload.",
        DefaultValueFactory = _ => 10_000,
    }.Between(1, MaxOrders);

    private static readonly Option<int> InFlight = new Option<int>("--in-flight")
    {
        Description = "Uploads in flight at once (default: the receivers' own Receiver:MaxConcurrentWrites).",
        DefaultValueFactory = _ => new ReceiverOptions().MaxConcurrentWrites,
    }.Between(1, 1_024);

    public static Command Create(IAnsiConsole console) =>
        new Command("ceiling", "Measure storage alone: upload order blobs into a scratch container (deleted afterwards), " +
                               "never the outboxes; append the result to the results log.")
        {
            Uploads, InFlight, Results, LeaseSeconds,
        }.Writes(Results).Runs((result, ct) => RunAsync(console, result, ct));

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var count = result.GetValue(Uploads);
        var inFlight = result.GetValue(InFlight);
        var ceiling = StorageCeiling.Open(CommandSupport.StorageOptionsOf(result));
        // Named as a burst's orders, so that a watch tells them apart; the same orders every time otherwise: the blobs'
        // sizes, and so the measurement, do not vary with the seed or the burst (its ids have as many digits every time).
        var burst = BurstId.New();
        var orders = OrderGenerator.Generate(count, seed: 1, burst);
        // Storage alone, so no burst at the same time (and none while this measures).
        await using var lease = await CommandSupport.HoldStoreAsync(await CommandSupport.OpenStorageAsync(result, ct), result, "ceiling", burst, ct);
        var measured = await lease.HoldingAsync(async held =>
        {
            if (await ceiling.RemoveLeftoversAsync(inFlight, held) is > 0 and var removed)
            {
                console.MarkupLineInterpolated($"Removed {removed} order blobs an earlier ceiling left in {OrderTopology.StorageAloneContainer} (it ended before removing them).");
            }

            return await CommandSupport.WithProgressAsync(console, $"Uploading {count} blobs, {inFlight} in flight", count,
                (progress, _) => ceiling.MeasureAsync(orders, inFlight, progress, held));
        }, ct);

        var series = StoredSeries.From(measured.StartedAt, measured.UploadedAt);
        if (series.PerSecond.Count > 0)
        {
            console.Write(SeriesChart.Of(series, "uploads"));
        }

        ResultLine.Write(console, ResultLine.Of(measured));
        if (measured.LeftBehind is { } name)
        {
            console.MarkupLineInterpolated($"[yellow]Could not remove what the measurement wrote into {name} at {ceiling.Endpoint}: delete its blobs by hand.[/]");
        }

        var results = result.GetValue(Results)!;
        lease.ThrowIfLost();
        var row = ResultsRow.Of(measured.StartedAt, StorageCeiling.Label, count, measured.Failed == 0 ? measured.Elapsed : null, measured.Failed, null) with
        {
            Burst = burst,
            Began = lease.Holder.StartedAt,
            Ended = DateTimeOffset.UtcNow,
        };
        await ResultsLog.AppendAsync(results, row, ct);
        console.MarkupLineInterpolated($"Uploads per second: {await SeriesCsv.WriteBesideAsync(series, results, row, ct)}");
        return measured.Failed == 0 ? ExitCodes.Done : ExitCodes.Incomplete;
    }
}
