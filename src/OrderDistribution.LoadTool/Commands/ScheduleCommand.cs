using System.CommandLine;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.LoadTool.Scheduling;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>schedule</c>: the orders file, poison included, onto the ingress queue through a sidecar.</summary>
internal static class ScheduleCommand
{
    public static Command Create(IAnsiConsole console, Action<IServiceCollection>? configurePublishing) =>
        new Command("schedule", "Put the orders on the ingress queue.")
        {
            ScheduleOptions, Orders, State, LeaseSeconds, StoreOptions,
        }.Writes(State).Runs((result, ct) =>
            new BurstScheduler(console, result.Schedule(), result.Store(), configurePublishing).RunAsync(ct));
}
