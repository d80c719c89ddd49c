using OrderDistribution.Contracts;
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
        var clock = System.Diagnostics.Stopwatch.StartNew();
        await console.WithProgressAsync("Clearing the outboxes", null, async (_, status) =>
        {
            await storage.ClearAsync(status, ct);
            return true;
        });
        console.MarkupLineInterpolated(
            $"Cleared {string.Join(", ", storage.Outboxes)} in {clock.Elapsed.TotalSeconds:0.00} s.");
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
}
