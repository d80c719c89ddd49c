using System.CommandLine;
using OrderDistribution.LoadTool.Ceiling;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>ceiling</c>: storage alone, the best any model can do; its result in the results file.
/// </summary>
internal static class CeilingCommand
{
    public static Command Create(IAnsiConsole console) =>
        new Command("ceiling", "Measure storage alone: upload order blobs into a scratch container (deleted " +
                               "afterwards), never the outboxes; append the result to the results file.")
        {
            Count, InFlight, Results, LeaseSeconds, StoreOptions,
        }.Writes(Results).Runs((result, ct) => new CeilingRun(console, result.Store()).RunAsync(
            result.GetValue(Count), result.GetValue(InFlight), result.PathOf(Results), ct));
}
