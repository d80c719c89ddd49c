using System.CommandLine;
using OrderDistribution.LoadTool.Bursts;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>watch</c>: waits until every valid order is a blob, then reports the cycle time and the chart.</summary>
internal static class WatchCommand
{
    private static readonly Option<DateTimeOffset?> ScheduledAt = new Option<DateTimeOffset?>("--scheduled-at")
    {
        Description = "When the orders were scheduled (default: from the schedule record).",
    }.Instant();

    public static Command Create(IAnsiConsole console) =>
        new Command("watch", "Wait until every valid order is a blob and report the cycle time.")
        {
            TimeoutSeconds, PollMilliseconds, MaxPollMilliseconds, ScheduledAt,
        }.Runs((result, ct) => new BurstWatch(console, result.Store()).RunAsync(
            result.GetValue(OrdersFile)!, result.GetValue(State)!, result.GetValue(ScheduledAt), result.Watch(), ct));
}
