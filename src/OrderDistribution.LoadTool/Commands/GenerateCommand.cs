using System.CommandLine;
using OrderDistribution.Contracts;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>generate</c>: fake orders (and poison, with <c>--invalid-rate</c>) into the orders file.</summary>
internal static class GenerateCommand
{
    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap) =>
        wrap(new Command("generate", "Generate orders into the orders file.") { Count, Seed, InvalidRate, ToBlob },
            (result, ct) => RunAsync(console, result, ct));

    public static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var count = result.GetValue(Count);
        if (count < 1)
        {
            throw new ArgumentException($"--count must be at least 1, not {count}.");
        }

        var set = OrderGenerator.Generate(count, result.GetValue(InvalidRate), result.GetValue(Seed));
        if (set.Orders.Count == 0)
        {
            throw new ArgumentException($"--invalid-rate {result.GetValue(InvalidRate)} leaves no valid order of {count}.");
        }

        var path = result.GetValue(OrdersFile)!;
        if (result.GetValue(ToBlob))
        {
            var storage = await CommandSupport.OpenStorageAsync(result, ct);
            await storage.UploadTestDataAsync(OrderFile.Serialize(set), ct);
        }

        await OrderFile.WriteAsync(path, set, ct);
        var express = set.Orders.Count(o => o.Delivery == Delivery.Express);
        var poison = set.Poison.Count > 0 ? $", {set.Poison.Count} poison" : "";
        console.MarkupLineInterpolated($"Generated {set.Count} orders ({express} express, {set.Orders.Count - express} standard{poison}) into {path}.");
        return ExitCodes.Done;
    }
}
