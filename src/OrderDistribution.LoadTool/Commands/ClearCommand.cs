using System.CommandLine;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>clear</c>: empties both outboxes by deleting and recreating their containers.</summary>
internal static class ClearCommand
{
    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap) =>
        wrap(new Command("clear", "Empty the outboxes (delete and recreate their containers)."),
            async (result, ct) =>
            {
                await CommandSupport.ClearAsync(console, await CommandSupport.OpenStorageAsync(result, ct), ct);
                return ExitCodes.Done;
            });
}
