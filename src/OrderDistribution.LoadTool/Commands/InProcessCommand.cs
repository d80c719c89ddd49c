using System.CommandLine;
using OrderDistribution.LoadTool.InProcess;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>in-process</c>: the main job without Dapr, Redis or RabbitMQ (<see cref="InProcessRun"/>), into the store given
/// with --storage, which must answer, or with none given into the local Azurite (started when none answers).
/// </summary>
internal static class InProcessCommand
{
    public static Command Create(IAnsiConsole console) =>
        new Command("in-process", "Run a burst through the trio hosted in this process (no Dapr, Redis or RabbitMQ) " +
                                  "into Azurite; append the result to the results log.")
        {
            Model, Count, Seed, InvalidRate, TimeoutSeconds, Results, LeaseSeconds,
        }.Writes(Results).Refuses(StorageAccountUrl, "in-process stores with a connection string (its trio signs in " +
                                                        "with no Azure identity): pass the account's with --storage")
        .Runs((result, ct) => new InProcessRun(console).RunAsync(
            new InProcessSettings(
                ModelOf(result), result.Spec(), TimeSpan.FromSeconds(result.GetValue(TimeoutSeconds)),
                result.GetValue(Results)!, result.GivenConnectionString(),
                TimeSpan.FromSeconds(result.GetValue(LeaseSeconds))),
            ct));
}
