using System.CommandLine;
using OrderDistribution.LoadTool.Bursts;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>watch</c>: waits until every valid order is a blob, then reports the cycle time and the chart.</summary>
internal static class WatchCommand
{
    public static Command Create(IAnsiConsole console) =>
        new Command("watch", "Wait until every valid order is a blob and report the cycle time.")
        {
            WatchOptions, ScheduledAt, Orders, State, StoreOptions,
        }.Runs((result, ct) => new BurstWatch(console, result.Store()).RunAsync(
            result.PathOf(Orders), result.PathOf(State), result.GetValue(ScheduledAt), result.Watch(), ct));
}
