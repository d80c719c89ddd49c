using System.CommandLine;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.LoadTool.Bursts;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Scheduling;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>run</c>: clear, generate, schedule and watch; one row in the results log and its series beside it.
/// </summary>
internal static class RunCommand
{
    private static readonly Option<string> Processes = new Option<string>("--processes")
    {
        Description = "The folder where scripts/run-local.sh names the processes it started and its broker: their " +
                      "CPU, memory and queues are measured over the burst (none if it does not exist).",
        DefaultValueFactory = _ => Costs.LocalProcesses.DefaultFolder,
    }.Text("a folder's path");

    private static readonly Option<BurstStart?> Start = new Option<BurstStart?>("--start")
    {
        Description = "cold: the first burst since the trio started; warm: a later one. Recorded in the results log " +
                      "(default: cold with --target azure, where the receivers scale from zero; else not recorded).",
    }.OneOf();

    public static Command Create(IAnsiConsole console, Action<IServiceCollection>? configurePublishing) =>
        new Command("run", "clear, generate, schedule and watch; append the result to the results log.")
        {
            Count, Seed, InvalidRate, Target, ScheduleDelay, Model, Sidecar, SidecarGrpc, MaxBulkBytes,
            TimeoutSeconds, PollMilliseconds, MaxPollMilliseconds, Results, Start, LeaseSeconds, Processes,
        }.Writes(OrdersFile, State, Results).Runs((result, ct) =>
            new BurstRun(console, result.Store(), configurePublishing).RunAsync(
                new RunSettings(result.Spec(), result.Schedule(), result.Watch(), result.GetValue(Results)!,
                    StartOf(result), result.GetValue(Processes)!),
                ct));

    /// <summary>
    /// --start, else cold in Azure, where the receivers scale from zero and every burst is a first one.
    /// </summary>
    public static BurstStart? StartOf(ParseResult result) =>
        result.GetValue(Start) ?? (result.GetValue(Target) == ScheduleTarget.Azure ? BurstStart.Cold : null);
}
