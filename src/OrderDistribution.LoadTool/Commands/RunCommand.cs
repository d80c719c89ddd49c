using System.CommandLine;
using Azure.Core;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.LoadTool.Bursts;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Scheduling;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>run</c>: clear, generate, schedule and watch; its result in the results file, its views beside it.
/// </summary>
internal static class RunCommand
{
    public static Command Create(IAnsiConsole console, Action<IServiceCollection>? configurePublishing) =>
        new Command("run", "clear, generate, schedule and watch; append the result to the results file.")
        {
            BurstOptions, ScheduleOptions, WatchOptions, Orders, State, Results, Start, LeaseSeconds, Processes,
            ServiceBusNamespace, StoreOptions,
        }.Writes(Orders, State, Results).OnlyInAzure(ServiceBusNamespace).Runs((result, ct) =>
            new BurstRun(console, result.Store(), configurePublishing).RunAsync(
                new RunSettings(result.Spec(), result.Schedule(), result.Watch(), result.PathOf(Results),
                    StartOf(result), result.GetValue(Processes)!.ToString(),
                    result.GetValue(ServiceBusNamespace)),
                ct));

    /// <summary>
    /// A local burst's queues are the local run's (--processes): an Azure namespace is refused (unless its own rule
    /// refused it already: that error is the one the user sees).
    /// </summary>
    private static Command OnlyInAzure(this Command command, Option<ResourceIdentifier?> option)
    {
        command.Validators.Add(result =>
        {
            if (result.GetResult(option) is { Implicit: false } given && OptionRules.TryValue(given, out object? _)
                && result.GetValue(Target) != ScheduleTarget.Azure)
            {
                result.AddError($"{option.Name} is for --target azure: a local burst's queues are read from " +
                                "--processes.");
            }
        });
        return command;
    }

    /// <summary>
    /// --start, else none: in Azure each app keeps a replica between bursts (minReplicas 1), so a burst is cold only
    /// when a replica started since the last one, which the tool cannot see.
    /// </summary>
    public static BurstStart? StartOf(ParseResult result) => result.GetValue(Start);
}
