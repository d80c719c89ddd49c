using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Bursts;

/// <summary>The steps of a burst that several commands take, each with its progress bar and its line.</summary>
public static class BurstSteps
{
    /// <summary><c>clear</c>: empties the outboxes under a hold on the store, never under a burst in flight.</summary>
    public static async Task<int> ClearAsync(IAnsiConsole console, ToolStore store, CancellationToken ct)
    {
        var storage = await store.OpenAsync(ct);
        // Never under a burst in flight: that is how a second run spoiled the first.
        await using var lease = await store.HoldAsync(storage, "clear", null, ct);
        return await lease.HoldingAsync(async held =>
        {
            await ClearAsync(console, storage, held);
            return ExitCodes.Done;
        }, ct);
    }

    /// <summary>Empties the outboxes, with a progress line, and says how long it took.</summary>
    public static async Task ClearAsync(IAnsiConsole console, OutboxStorage storage, CancellationToken ct)
    {
        var began = storage.Time.GetTimestamp();
        await console.WithProgressAsync("Clearing the outboxes", null, async (_, status) =>
        {
            await storage.ClearAsync(status, ct);
            return true;
        });
        var took = storage.Time.GetElapsedTime(began);
        console.MarkupLineInterpolated($"Cleared {string.Join(", ", storage.Outboxes)} in {took.TotalSeconds:0.00} s.");
    }

    /// <summary>
    /// Generates <paramref name="spec"/>, numbered as <paramref name="burst"/>, into the orders file as it is made (and
    /// into the test-data blob of <paramref name="testData"/>, if given), and says what it holds.
    /// </summary>
    public static async Task GenerateAsync(
        IAnsiConsole console, BurstSpec spec, string path, BurstId burst, OutboxStorage? testData, CancellationToken ct)
    {
        var (valid, express) = (0, 0);
        var poison = new List<PoisonOrder>();
        var orders = OrderGenerator.Generate(spec.Count, spec.InvalidRate, spec.Seed, poison.Add, burst)
            .Select(order =>
            {
                valid++;
                express += order.Delivery == Delivery.Express ? 1 : 0;
                return order;
            });
        await OrderFile.WriteAsync(path, orders, poison, burst, ct);
        if (testData is not null)
        {
            await using var file = File.OpenRead(path);
            await testData.UploadTestDataAsync(file, ct);
        }

        var poisonText = poison.Count > 0 ? $", {poison.Count} poison" : "";
        var counts = $"{express} express, {valid - express} standard{poisonText}";
        var total = valid + poison.Count;
        console.MarkupLineInterpolated($"Generated burst {burst}: {total} orders ({counts}) into {path}.");
    }

    /// <summary>
    /// Watches the outboxes for <paramref name="expected"/>, with a bar that moves from the first page listed.
    /// </summary>
    public static async Task<WatchReport> WatchAsync(
        IAnsiConsole console, OutboxStorage storage, WatchExpectation expected, DateTimeOffset scheduledAt,
        WatchSettings settings, CancellationToken ct)
    {
        var watcher = new OutboxWatcher(storage, settings.Pacing);
        var count = expected.OutboxOf.Count;
        return await console.WithProgressAsync($"Waiting for {count} blobs", count, (progress, _) =>
            watcher.WatchAsync(expected, scheduledAt, settings.Timeout, progress, console.Lines(), ct));
    }

    /// <summary>
    /// Done when every valid order is a blob and every poison order read back from the dead-letter queue (when it was
    /// read); else the missing ones (the first 20) and Incomplete.
    /// </summary>
    public static int ExitCode(IAnsiConsole console, WatchReport report)
    {
        var lettersMissing = report.PoisonExpected - (report.PoisonDeadLettered ?? report.PoisonExpected);
        if (report.Complete && lettersMissing == 0)
        {
            return ExitCodes.Done;
        }

        if (report.Complete)
        {
            const string DeadLetterQueue = OrderTopology.DeadLetterQueue;
            console.MarkupLineInterpolated(
                $"[red]{lettersMissing} poison orders are not on the dead-letter queue {DeadLetterQueue}.[/]");
            return ExitCodes.Incomplete;
        }

        var more = report.Missing.Count > 20 ? ", …" : "";
        console.MarkupLineInterpolated(
            $"[red]Still missing at the timeout: {string.Join(", ", report.Missing.Take(20))}{more}[/]");
        return ExitCodes.Incomplete;
    }

    /// <summary>How a watched burst ends, for every command that runs one: the chart and the result line.</summary>
    /// <param name="cost">
    /// What the local run's processes spent, when they could be seen: one line after the result line.
    /// </param>
    public static void PrintResult(IAnsiConsole console, WatchReport report, string label, BurstCost? cost = null)
    {
        if (StoredSeries.From(report) is { PerSecond.Count: > 0 } series)
        {
            console.Write(SeriesChart.Of(series, "orders stored"));
        }

        if (!report.StoredAtFromMetadata)
        {
            console.MarkupLine(
                "[yellow]Some blobs carry no storedat metadata: their times are Last-Modified, whole seconds only.[/]");
        }

        ResultLine.Write(console, ResultLine.Of(report, label));
        if (cost is not null)
        {
            ResultLine.Write(console, $"{label} {cost.Line()}");
        }
    }

    /// <summary>
    /// Keeps the burst's result, ended now, in the results file, and writes its CSVs beside it.
    /// </summary>
    /// <param name="began">When the burst took the store.</param>
    /// <param name="time">The clock the burst ends by.</param>
    /// <param name="cost">The burst's cost per component.</param>
    /// <param name="queues">The orders waiting per queue and second.</param>
    /// <returns>The per-second series' CSV.</returns>
    public static async Task<string> RecordResultAsync(
        WatchReport report, string label, string resultsFile, BurstStart? start, BurstId burst, DateTimeOffset began,
        TimeProvider time, CancellationToken cancellationToken, BurstCost? cost = null, QueueSeries? queues = null)
    {
        var result = BurstResult.Of(label, report, start, burst.Value, began, time.GetUtcNow()) with
        {
            Cost = cost,
            Queues = queues,
        };
        await ResultsFile.AppendAsync(resultsFile, result, cancellationToken);
        return await SeriesCsv.WriteBesideAsync(result, resultsFile, cancellationToken);
    }
}
