using System.CommandLine;
using OrderDistribution.LoadTool.Ceiling;
using OrderDistribution.Receiver;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>ceiling</c>: storage alone, the best any model can do; one row in the results log and its series.
/// </summary>
internal static class CeilingCommand
{
    private static readonly Option<int> Uploads = new Option<int>("--count")
    {
        Description = "How many order blobs to upload.",
        DefaultValueFactory = _ => 10_000,
    }.Between(1, MaxOrders);

    private static readonly Option<int> InFlight = new Option<int>("--in-flight")
    {
        Description = "Uploads in flight at once (default: the receivers' own Receiver:MaxConcurrentWrites).",
        DefaultValueFactory = _ => new ReceiverOptions().MaxConcurrentWrites,
    }.Between(1, 1_024);

    public static Command Create(IAnsiConsole console) =>
        new Command("ceiling", "Measure storage alone: upload order blobs into a scratch container (deleted " +
                               "afterwards), never the outboxes; append the result to the results log.")
        {
            Uploads, InFlight, Results, LeaseSeconds,
        }.Writes(Results).Runs((result, ct) => new CeilingRun(console, result.Store()).RunAsync(
            result.GetValue(Uploads), result.GetValue(InFlight), result.GetValue(Results)!, ct));
}
