using System.CommandLine;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.LoadTool.Bursts;
using OrderDistribution.LoadTool.Reporting;
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
                      "(default: not recorded; scripts/azure-burst.sh tells it from the replicas' ages).",
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
    /// --start, else none: in Azure each app keeps a replica between bursts (minReplicas 1), so a burst is cold only
    /// when a replica started since the last one, which the tool cannot see.
    /// </summary>
    public static BurstStart? StartOf(ParseResult result) => result.GetValue(Start);
}
