using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Store;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Ceiling;

/// <summary>
/// <c>ceiling</c>: storage alone, the best any model can do; one record in the results file and its series.
/// </summary>
public sealed class CeilingRun(IAnsiConsole console, ToolStore store)
{
    /// <param name="count">How many order blobs to upload.</param>
    /// <param name="inFlight">Uploads in flight at once.</param>
    /// <param name="results">The results file the record goes to.</param>
    /// <returns>The exit code: done when every upload succeeded.</returns>
    public async Task<int> RunAsync(int count, int inFlight, string results, CancellationToken ct)
    {
        var ceiling = StorageCeiling.Open(store.Options, store.Time);
        // Named as a burst's orders, so that a watch tells them apart; the same orders every time otherwise: the
        // blobs' sizes, and so the measurement, vary with neither the seed nor the burst (its ids have as many digits
        // every time).
        var burst = BurstId.New();
        var orders = OrderGenerator.Generate(count, seed: 1, burst);
        // Storage alone, so no burst at the same time (and none while this measures).
        await using var lease = await store.HoldAsync(await store.OpenAsync(ct), "ceiling", burst, ct);
        var measured = await lease.HoldingAsync(async held =>
        {
            if (await ceiling.RemoveLeftoversAsync(inFlight, held) is > 0 and var removed)
            {
                const string container = OrderTopology.StorageAloneContainer;
                const string why = "it ended before removing them";
                console.MarkupLineInterpolated(
                    $"Removed {removed} order blobs an earlier ceiling left in {container} ({why}).");
            }

            return await console.WithProgressAsync($"Uploading {count} blobs, {inFlight} in flight", count,
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
            var where = $"{name} at {ceiling.Endpoint}";
            console.MarkupLineInterpolated(
                $"[yellow]Could not remove what the measurement wrote into {where}: delete its blobs by hand.[/]");
        }

        lease.ThrowIfLost();
        var elapsed = measured.Failed == 0 ? measured.Elapsed : (TimeSpan?)null;
        var result = new BurstResult(StorageCeiling.Label, burst.Value, null, count, measured.Failed,
            elapsed?.TotalSeconds, measured.StartedAt, lease.Holder.StartedAt, store.Time.GetUtcNow(),
            series.PerSecond);
        await ResultsFile.AppendAsync(results, result, ct);
        var csv = await SeriesCsv.WriteBesideAsync(result, results, ct);
        console.MarkupLineInterpolated($"Uploads per second: {csv}");
        return measured.Failed == 0 ? ExitCodes.Done : ExitCodes.Incomplete;
    }
}
