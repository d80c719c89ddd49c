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
    public static Command Create(IAnsiConsole console) =>
        new Command("watch", "Wait until every valid order is a blob and report the cycle time.")
        {
            TimeoutSeconds, PollMilliseconds, MaxPollMilliseconds, ScheduledAt,
        }.Runs((result, ct) => RunAsync(console, result, ct));

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var record = await ScheduleRecordOrNullAsync(result, ct);
        // The inputs first (a missing file is bad input, exit 2), then storage.
        var expected = WatchExpectation.For(await OrderFile.ReadIndexAsync(result.GetValue(OrdersFile)!, ct));
        if (record?.Burst is { } scheduled && scheduled != expected.Burst.Value && result.GetValue(ScheduledAt) is null)
        {
            throw new InvalidDataException(
                $"The schedule record {result.GetValue(State)} is of burst {scheduled}, but the orders file {result.GetValue(OrdersFile)} holds burst " +
                $"{expected.Burst}: the file was generated again after the schedule, and watch needs the one scheduled");
        }

        var scheduledAt = ScheduledAtOf(result, record);
        var report = await WatchAsync(console, result, await CommandSupport.OpenStorageAsync(result, ct), expected, scheduledAt, ct);
        BurstResults.Print(console, report, record?.Model ?? "watch");
        return ExitCode(console, report);
    }

    /// <summary>Watches the outboxes for <paramref name="expected"/>, with a progress bar that moves from the first page listed.</summary>
    public static async Task<WatchReport> WatchAsync(
        IAnsiConsole console, ParseResult result, OutboxStorage storage, WatchExpectation expected, DateTimeOffset scheduledAt, CancellationToken ct)
    {
        var watcher = new OutboxWatcher(storage, Pacing(result));
        return await CommandSupport.WithProgressAsync(console, $"Waiting for {expected.OutboxOf.Count} blobs", expected.OutboxOf.Count, (progress, _) =>
            watcher.WatchAsync(expected, scheduledAt, TimeSpan.FromSeconds(result.GetValue(TimeoutSeconds)), progress, CommandSupport.Lines(console), ct));
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

    private static async Task<ScheduleRecord?> ScheduleRecordOrNullAsync(ParseResult result, CancellationToken ct) =>
        File.Exists(result.GetValue(State)) ? await ScheduleRecord.ReadAsync(result.GetValue(State)!, ct) : null;

    private static WatchPacing Pacing(ParseResult result)
    {
        var min = result.GetValue(PollMilliseconds);
        return new WatchPacing(TimeSpan.FromMilliseconds(min), TimeSpan.FromMilliseconds(Math.Max(min, result.GetValue(MaxPollMilliseconds))));
    }
}
