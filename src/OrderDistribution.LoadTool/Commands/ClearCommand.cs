using System.CommandLine;
using OrderDistribution.LoadTool.Bursts;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>clear</c>: empties both outboxes (in Azure blob by blob, keeping the containers).</summary>
internal static class ClearCommand
{
    public static Command Create(IAnsiConsole console) =>
        new Command("clear", "Empty the outboxes (in Azure: delete their blobs; with a key: delete and recreate the " +
                             "containers).")
        {
            LeaseSeconds, StoreOptions,
        }.Runs((result, ct) => BurstSteps.ClearAsync(console, result.Store(), ct));
}
