using System.CommandLine;
using System.Diagnostics;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>clear</c>: empties both outboxes by deleting and recreating their containers.</summary>
internal static class ClearCommand
{
    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap) =>
        wrap(new Command("clear", "Empty the outboxes (delete and recreate their containers)."),
            async (result, ct) => await RunAsync(console, await CommandSupport.OpenStorageAsync(result, ct), ct));

    public static async Task<int> RunAsync(IAnsiConsole console, OutboxStorage storage, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        await CommandSupport.WithProgressAsync(console, "Clearing the outboxes", null, async (_, status) =>
        {
            await storage.ClearAsync(status, ct);
            return true;
        });
        console.MarkupLineInterpolated($"Cleared {string.Join(", ", storage.Outboxes)} in {clock.Elapsed.TotalSeconds:0.00} s.");
        return ExitCodes.Done;
    }
}
