using System.CommandLine;
using OrderDistribution.LoadTool.Bursts;
using OrderDistribution.LoadTool.Generation;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>generate</c>: fake orders (and poison, with <c>--invalid-rate</c>) into the orders file.</summary>
internal static class GenerateCommand
{
    private static readonly Option<bool> ToBlob = new("--to-blob")
    {
        Description = "Also upload the orders to blob test-data/orders.json.",
    };

    public static Command Create(IAnsiConsole console) =>
        new Command("generate", "Generate orders into the orders file.") { Count, Seed, InvalidRate, ToBlob }
            .Writes(OrdersFile)
            .Runs(async (result, ct) =>
            {
                var spec = result.Spec();
                spec.EnsureValidOrders();
                var testData = result.GetValue(ToBlob) ? await result.Store().OpenAsync(ct) : null;
                var path = result.GetValue(OrdersFile)!;
                await BurstSteps.GenerateAsync(console, spec, path, BurstId.New(), testData, ct);
                return ExitCodes.Done;
            });
}
