using System.CommandLine;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>clear</c>: empties both outboxes (in Azure blob by blob, keeping the containers).</summary>
internal static class ClearCommand
{
    public static Command Create(IAnsiConsole console) =>
        new Command("clear", "Empty the outboxes (in Azure: delete their blobs; with a key: delete and recreate the containers).")
        {
            CommonOptions.LeaseSeconds,
        }.Runs((result, ct) => RunAsync(console, result, ct));

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var storage = await CommandSupport.OpenStorageAsync(result, ct);
        // Never under a burst in flight: that is how a second run spoiled the first.
        await using var lease = await CommandSupport.HoldStoreAsync(storage, result, "clear", null, ct);
        return await lease.HoldingAsync(async held =>
        {
            await CommandSupport.ClearAsync(console, storage, held);
            return ExitCodes.Done;
        }, ct);
    }
}
