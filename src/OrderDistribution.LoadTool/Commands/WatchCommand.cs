using System.CommandLine;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>watch</c>: waits until every valid order is a blob, then reports the cycle time and the per-second chart.</summary>
internal static class WatchCommand
{
    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap) =>
        wrap(new Command("watch", "Wait until every valid order is a blob and report the cycle time.")
            {
                TimeoutSeconds, PollMilliseconds, MaxPollMilliseconds, ScheduledAt,
            },
            async (result, ct) =>
            {
                var record = await ScheduleRecordOrNullAsync(result, ct);
                // The inputs first (a missing file is bad input, exit 2), then storage.
                await OrderFile.ReadSetAsync(result.GetValue(OrdersFile)!, ct);
                _ = ScheduledAtOf(result, record);
                var report = await WatchAsync(console, result, await CommandSupport.OpenStorageAsync(result, ct), record, ct);
                Print(console, report, record?.Model ?? "watch");
                return ExitCode(console, report);
            });

    /// <param name="record">What 'schedule' recorded; --scheduled-at, when given, wins over it.</param>
    public static async Task<WatchReport> WatchAsync(
        IAnsiConsole console, ParseResult result, OutboxStorage storage, ScheduleRecord? record, CancellationToken ct)
    {
        var set = await OrderFile.ReadSetAsync(result.GetValue(OrdersFile)!, ct);
        var scheduledAt = ScheduledAtOf(result, record);
        var watcher = new OutboxWatcher(storage, Pacing(result));
        return await CommandSupport.WithProgressAsync(console, $"Waiting for {set.Orders.Count} blobs", set.Orders.Count, (progress, status) =>
            watcher.WatchAsync(WatchExpectation.For(set), scheduledAt, TimeSpan.FromSeconds(result.GetValue(TimeoutSeconds)), progress, status, ct));
    }

    public static void Print(IAnsiConsole console, WatchReport report, string label)
    {
        if (StoredSeries.From(report) is { PerSecond.Count: > 0 } series)
        {
            console.Write(series.Chart());
        }

        if (!report.StoredAtFromMetadata)
        {
            console.MarkupLine("[yellow]Some blobs carry no storedat metadata: their times are Last-Modified, whole seconds only.[/]");
        }

        console.WriteLine(report.Summary(label));
    }

    public static int ExitCode(IAnsiConsole console, WatchReport report)
    {
        if (report.Complete)
        {
            return ExitCodes.Done;
        }

        console.MarkupLineInterpolated($"[red]Still missing at the timeout: {string.Join(", ", report.Missing.Take(20))}{(report.Missing.Count > 20 ? ", …" : "")}[/]");
        return ExitCodes.Incomplete;
    }

    private static DateTimeOffset ScheduledAtOf(ParseResult result, ScheduleRecord? record) =>
        result.GetValue(ScheduledAt) ?? record?.ScheduledAt ?? throw new FileNotFoundException(
            $"No schedule record at {result.GetValue(State)}: run 'schedule' first, or pass --scheduled-at.");

    public static async Task<ScheduleRecord?> ScheduleRecordOrNullAsync(ParseResult result, CancellationToken ct) =>
        File.Exists(result.GetValue(State)) ? await ScheduleRecord.ReadAsync(result.GetValue(State)!, ct) : null;

    private static WatchPacing Pacing(ParseResult result)
    {
        var min = result.GetValue(PollMilliseconds);
        if (min is < 10 or > 600_000)
        {
            throw new ArgumentException($"--poll must be between 10 and 600000 ms, not {min}.");
        }

        return new WatchPacing(TimeSpan.FromMilliseconds(min), TimeSpan.FromMilliseconds(Math.Max(min, result.GetValue(MaxPollMilliseconds))));
    }
}
