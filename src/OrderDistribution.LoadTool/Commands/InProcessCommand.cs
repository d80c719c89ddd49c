using System.CommandLine;
using OrderDistribution.LoadTool.InProcess;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>in-process</c>: the main job without Dapr, Redis or RabbitMQ (<see cref="InProcessRun"/>), into the store given
/// with --storage, which must answer, or with none given into the local Azurite (started when none answers). Its trio
/// signs in with no Azure identity, so it takes a connection string and no --storage-account-url.
/// </summary>
internal static class InProcessCommand
{
    public static Command Create(IAnsiConsole console) =>
        new Command("in-process", "Run a burst through the trio hosted in this process (no Dapr, Redis or RabbitMQ) " +
                                  "into Azurite, or the store --storage names; append the result to the results file.")
        {
            Model, BurstOptions, TimeoutSeconds, Results, LeaseSeconds, StorageConnectionString,
        }.Writes(Results).Runs((result, ct) => new InProcessRun(console).RunAsync(
            new InProcessSettings(
                ModelOf(result), result.Spec(), TimeSpan.FromSeconds(result.GetValue(TimeoutSeconds)),
                result.PathOf(Results), result.GivenConnectionString(),
                TimeSpan.FromSeconds(result.GetValue(LeaseSeconds))),
            ct));
}
