using System.CommandLine;
using Azure.Core;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.LoadTool.Bursts;
using OrderDistribution.LoadTool.Queues;
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

    private static readonly Option<ResourceIdentifier?> ServiceBusNamespace =
        new Option<ResourceIdentifier?>("--servicebus-namespace-id")
        {
            Description = "Azure: the Service Bus namespace's resource id, whose queues' active messages are read " +
                          "every second of the burst (Reader on it is enough; scripts/azure-burst.sh gives it).",
        }.Takes("a Service Bus namespace's resource id (/subscriptions/<id>/resourceGroups/<group>/providers/" +
                "Microsoft.ServiceBus/namespaces/<name>)", ServiceBusQueueDepths.NamespaceOf);

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
            ServiceBusNamespace,
        }.Writes(OrdersFile, State, Results).OnlyInAzure(ServiceBusNamespace).Runs((result, ct) =>
            new BurstRun(console, result.Store(), configurePublishing).RunAsync(
                new RunSettings(result.Spec(), result.Schedule(), result.Watch(), result.GetValue(Results)!,
                    StartOf(result), result.GetValue(Processes)!, result.GetValue(ServiceBusNamespace)),
                ct));

    /// <summary>
    /// A local burst's queues are the local run's (--processes): an Azure namespace is refused (unless its own rule
    /// refused it already: that error is the one the user sees).
    /// </summary>
    private static Command OnlyInAzure(this Command command, Option<ResourceIdentifier?> option)
    {
        command.Validators.Add(result =>
        {
            if (result.GetResult(option) is { Implicit: false } && result.GetValue(Target) != ScheduleTarget.Azure
                && OptionRules.ValueOrNull(result, option) is not null)
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
