using System.CommandLine;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>generate</c>: fake orders (and poison, with <c>--invalid-rate</c>) into the orders file.</summary>
internal static class GenerateCommand
{
    public static Command Create(IAnsiConsole console) =>
        new Command("generate", "Generate orders into the orders file.") { Count, Seed, InvalidRate, ToBlob }
            .Writes(OrdersFile)
            .Runs((result, ct) => RunAsync(console, result, ct));

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        CheckLeavesValidOrders(result);
        await WriteAsync(console, result, BurstId.New(), ct);
        return ExitCodes.Done;
    }

    /// <summary>Checks, without making them, that the options' burst holds a valid order (their ranges were checked by the parser).</summary>
    /// <exception cref="ArgumentException">The invalid rate leaves no valid order.</exception>
    public static void CheckLeavesValidOrders(ParseResult result)
    {
        if (OrderGenerator.ValidCount(result.GetValue(Count), result.GetValue(InvalidRate)) == 0)
        {
            throw new ArgumentException($"--invalid-rate {result.GetValue(InvalidRate)} leaves no valid order of {result.GetValue(Count)}.");
        }
    }

    /// <summary>
    /// Generates the burst the options describe, numbered as <paramref name="burst"/>, into the orders file as it is made
    /// (and with --to-blob the test-data blob), and says what it holds.
    /// </summary>
    public static async Task WriteAsync(IAnsiConsole console, ParseResult result, BurstId burst, CancellationToken ct)
    {
        var path = result.GetValue(OrdersFile)!;
        var storage = result.GetValue(ToBlob) ? await CommandSupport.OpenStorageAsync(result, ct) : null;
        var (valid, express) = (0, 0);
        var poison = new List<PoisonOrder>();
        var orders = OrderGenerator.Generate(result.GetValue(Count), result.GetValue(InvalidRate), result.GetValue(Seed), poison.Add, burst)
            .Select(order =>
            {
                valid++;
                express += order.Delivery == Delivery.Express ? 1 : 0;
                return order;
            });
        await OrderFile.WriteAsync(path, orders, poison, burst, ct);
        if (storage is not null)
        {
            await using var file = File.OpenRead(path);
            await storage.UploadTestDataAsync(file, ct);
        }

        var poisonText = poison.Count > 0 ? $", {poison.Count} poison" : "";
        console.MarkupLineInterpolated($"Generated burst {burst}: {valid + poison.Count} orders ({express} express, {valid - express} standard{poisonText}) into {path}.");
    }
}
