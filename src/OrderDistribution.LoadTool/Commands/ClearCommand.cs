using System.CommandLine;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>clear</c>: empties both outboxes (in Azure blob by blob, keeping the containers).</summary>
internal static class ClearCommand
{
    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap) =>
        wrap(new Command("clear", "Empty the outboxes (in Azure: delete their blobs; with a key: delete and recreate the containers)."),
            async (result, ct) =>
            {
                await CommandSupport.ClearAsync(console, await CommandSupport.OpenStorageAsync(result, ct), ct);
                return ExitCodes.Done;
            });
}
