using System.CommandLine;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>generate</c>: fake orders (and poison, with <c>--invalid-rate</c>) into the orders file.</summary>
internal static class GenerateCommand
{
    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap) =>
        wrap(new Command("generate", "Generate orders into the orders file.") { Count, Seed, InvalidRate, ToBlob },
            (result, ct) => RunAsync(console, result, ct));

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        await WriteAsync(console, result, Generate(result), ct);
        return ExitCodes.Done;
    }

    /// <summary>The burst the options describe (their ranges were checked by the parser).</summary>
    /// <exception cref="ArgumentException">The invalid rate leaves no valid order.</exception>
    public static OrderSet Generate(ParseResult result)
    {
        var set = OrderGenerator.Generate(result.GetValue(Count), result.GetValue(InvalidRate), result.GetValue(Seed));
        return set.Orders.Count > 0
            ? set
            : throw new ArgumentException($"--invalid-rate {result.GetValue(InvalidRate)} leaves no valid order of {result.GetValue(Count)}.");
    }

    /// <summary>Writes the orders file (and with --to-blob the test-data blob) and says what it holds.</summary>
    public static async Task WriteAsync(IAnsiConsole console, ParseResult result, OrderSet set, CancellationToken ct)
    {
        var path = result.GetValue(OrdersFile)!;
        var storage = result.GetValue(ToBlob) ? await CommandSupport.OpenStorageAsync(result, ct) : null;
        await OrderFile.WriteAsync(path, set, ct);
        if (storage is not null)
        {
            await using var file = File.OpenRead(path);
            await storage.UploadTestDataAsync(file, ct);
        }

        var express = set.Orders.Count(o => o.Delivery == Delivery.Express);
        var poison = set.Poison.Count > 0 ? $", {set.Poison.Count} poison" : "";
        console.MarkupLineInterpolated($"Generated {set.Count} orders ({express} express, {set.Orders.Count - express} standard{poison}) into {path}.");
    }
}
