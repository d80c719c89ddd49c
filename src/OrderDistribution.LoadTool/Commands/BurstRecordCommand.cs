using System.CommandLine;
using System.Globalization;
using System.Text.RegularExpressions;
using OrderDistribution.LoadTool.BurstRecords;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.Messaging;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>burst-record</c>: what scripts/azure-burst.sh reads and keeps about a burst, one line per subcommand: the
/// scheduled instant and the clock skew from the schedule record (--state), the query window, the load tool's row in
/// its results log, what the burst cost and the history of bursts. Without a schedule record, no instant and no skew.
/// </summary>
internal static partial class BurstRecordCommand
{
    private static readonly Option<DateTimeOffset> Started = new Option<DateTimeOffset>("--started")
    {
        Description = "When the burst started, by this machine's clock.",
        Required = true,
    }.Epoch();

    private static readonly Option<DateTimeOffset> Ended = new Option<DateTimeOffset>("--ended")
    {
        Description = "When the burst ended (its queues drained), by this machine's clock.",
        Required = true,
    }.Epoch();

    private static readonly Option<string> History = new Option<string>("--history")
    {
        Description = "The environment's history of bursts (tab-separated; started with its header when new).",
        Required = true,
    }.Text("a file's path");

    private static readonly Option<string> Start = new Option<string>("--start")
    {
        Description = "How the burst started: cold, warm, or as given.",
        Required = true,
    }.Text("a start label");

    private static readonly Option<string> ReplicasAtInstant = new Option<string>("--replicas-at-instant")
    {
        Description = "Each app's replica count at the scheduled instant (\"app=count ...\"; empty or \"app=?\" " +
                      "when not read).",
        Required = true,
    }.Takes("app=count pairs separated by spaces (count ? when not read), or nothing",
        text => ReplicaCounts().IsMatch(text) ? text : null);

    private static readonly Option<string> ReplicasAtEnd = new Option<string>("--replicas-at-end")
    {
        Description = "Each app's replica count at the end, as --replicas-at-instant.",
        Required = true,
    }.Takes("app=count pairs separated by spaces (count ? when not read), or nothing",
        text => ReplicaCounts().IsMatch(text) ? text : null);

    private static readonly Option<string> TieredCompilation = new Option<string>("--tiered-compilation")
    {
        Description = "Whether the deployed apps run with tiered compilation (DOTNET_TieredCompilation in each " +
                      "app's latest revision): on, off, or mixed.",
        Required = true,
    }.Takes("on, off or mixed", text => text is "on" or "off" or "mixed" ? text : null);

    public static Command Create(IAnsiConsole console) =>
        new("burst-record", "What scripts/azure-burst.sh reads and keeps about a burst, one line each.")
        {
            new Command("instant", "The scheduled instant, in storage's time (UTC); nothing without a record.")
                .Runs(async (result, ct) => Print(console, (await InstantAsync(result, ct))?.Text)),
            new Command("skew", "Whole seconds storage's clock was ahead of this machine's; 0 without a record.")
                .Runs(async (result, ct) => Print(console, Invariant(await SkewAsync(result, ct)))),
            new Command("seconds-to-instant", "Whole seconds from now until the scheduled instant by this machine's " +
                                              "clock (0 once past); nothing without a record.")
                .Runs(async (result, ct) => Print(console,
                    (await InstantAsync(result, ct))?.SecondsUntil(DateTimeOffset.UtcNow).ToString(
                        CultureInfo.InvariantCulture))),
            new Command("window", "The telemetry query's window, \"start end\": this machine's start and end in " +
                                  "storage's time, widened a minute each side.")
            {
                Started, Ended,
            }.Runs(async (result, ct) => Print(console, QueryWindow.Of(
                result.GetValue(Started), result.GetValue(Ended), await SkewAsync(result, ct)).Format())),
            new Command("end", "When the burst ended, in storage's time: the next burst is cold if an app started " +
                               "after it.")
            {
                Ended,
            }.Runs(async (result, ct) =>
                Print(console, QueryWindow.Text(result.GetValue(Ended) + await SkewAsync(result, ct)))),
            new Command("result", "The load tool's row for the burst in its results log: \"cycle-seconds count " +
                                  "missing\" (\"-\" for no cycle time); nothing without one.")
            {
                Results,
            }.Runs(async (result, ct) => Print(console, await ResultAsync(result, ct))),
            new Command("history", "How many earlier bursts in the history compare with this one: same model, " +
                                   "start, replicas at the instant and tiered compilation.")
            {
                History, Model, Start, ReplicasAtInstant, TieredCompilation,
            }.Writes(History).Runs(async (result, ct) => Print(console, await ComparableAsync(result, ct))),
            AppCostCommand(console),
            CostTotalCommand(console),
            TelemetryCostCommand(console),
            new Command("append", "Append the burst's row to the history: its instant, model, start, replicas at " +
                                  "the instant and at the end, cost (the apps' in --costs added), tiered " +
                                  "compilation and the telemetry's cost (--telemetry).")
            {
                History, Model, Start, ReplicasAtInstant, ReplicasAtEnd, Costs, TieredCompilation, Telemetry,
            }.Writes(History).Runs(async (result, ct) =>
            {
                await BurstHistory.AppendAsync(result.GetValue(History)!, new BurstHistoryRow(
                    await InstantAsync(result, ct), ModelOf(result).Text(), result.GetValue(Start)!,
                    result.GetValue(ReplicasAtInstant)!, result.GetValue(ReplicasAtEnd)!,
                    await CostCellsAsync(result, ct), result.GetValue(TieredCompilation)!,
                    await TelemetryCellsAsync(result, ct)), ct);
                return ExitCodes.Done;
            }),
        };

    private static Task<ScheduledInstant?> InstantAsync(ParseResult result, CancellationToken ct) =>
        ScheduledInstant.ReadAsync(result.GetValue(State)!, ct);

    private static async Task<TimeSpan> SkewAsync(ParseResult result, CancellationToken ct) =>
        (await InstantAsync(result, ct))?.Skew ?? TimeSpan.Zero;

    private static async Task<string?> ResultAsync(ParseResult result, CancellationToken ct)
    {
        var log = result.GetValue(Results)!;
        return await InstantAsync(result, ct) is { } instant && File.Exists(log)
               && instant.ResultIn(await ResultsLog.ReadAsync(log, ct)) is { } row
            ? string.Create(CultureInfo.InvariantCulture,
                $"{(row.CycleSeconds is { } cycle ? cycle.ToString("0.0", CultureInfo.InvariantCulture) : "-")} " +
                $"{row.Count} {row.Missing}")
            : null;
    }

    private static async Task<string> ComparableAsync(ParseResult result, CancellationToken ct)
    {
        var (history, model, start) = (result.GetValue(History)!, ModelOf(result).Text(), result.GetValue(Start)!);
        var tiered = result.GetValue(TieredCompilation)!;
        return await BurstHistory.CountComparableAsync(
                history, model, start, result.GetValue(ReplicasAtInstant) ?? "", tiered, ct) is { } alike
            ? $"comparable earlier bursts (model {model}, start {start}, same replicas at the instant, tiered " +
              $"compilation {tiered}): {alike}, in {history}"
            : "comparable earlier bursts: unknown (the replicas at the instant were not read); compare this burst " +
              "with none";
    }

    private static string Invariant(TimeSpan seconds) =>
        ((long)seconds.TotalSeconds).ToString(CultureInfo.InvariantCulture);

    [GeneratedRegex(@"^([\w-]+=(\d+|\?)( [\w-]+=(\d+|\?))*)?$")]
    private static partial Regex ReplicaCounts();

    /// <summary>The subcommand's one line, as it is (nothing when there is nothing to say).</summary>
    private static int Print(IAnsiConsole console, string? line)
    {
        if (line is not null)
        {
            ResultLine.Write(console, line);
        }

        return ExitCodes.Done;
    }
}
