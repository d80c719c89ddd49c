using System.CommandLine;
using OrderDistribution.LoadTool.Bursts;
using OrderDistribution.LoadTool.Generation;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>generate</c>: fake orders (and poison, with <c>--invalid-rate</c>) into the orders file.</summary>
internal static class GenerateCommand
{
    public static Command Create(IAnsiConsole console) =>
        new Command("generate", "Generate orders into the orders file.") { BurstOptions, Orders, ToBlob, StoreOptions }
            .Writes(Orders)
            .Runs(async (result, ct) =>
            {
                var spec = result.Spec();
                spec.EnsureValidOrders();
                var testData = result.GetValue(ToBlob) ? await result.Store().OpenAsync(ct) : null;
                await BurstSteps.GenerateAsync(console, spec, result.PathOf(Orders), BurstId.New(), testData, ct);
                return ExitCodes.Done;
            });
}
