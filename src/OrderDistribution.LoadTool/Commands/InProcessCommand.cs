using System.CommandLine;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.InProcess;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Messaging;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>in-process</c>: the main job without Dapr, Redis or RabbitMQ. The trio runs in this process behind the sidecar
/// emulator and stores into the store given with --storage, which must answer, or with none given into the local
/// Azurite (started here when none answers); the burst is scheduled, watched and logged as
/// <c>run</c> does it, under the label <c>in-process-</c> and the model (<c>in-process-pubsub-bulk</c>, <c>-pubsub-single</c>, <c>-bindings</c>).
/// </summary>
internal static class InProcessCommand
{
    public static Command Create(IAnsiConsole console) =>
        new Command("in-process", "Run a burst through the trio hosted in this process (no Dapr, Redis or RabbitMQ) into " +
                                  "Azurite; append the result to the results log.")
        {
            Model, Count, Seed, InvalidRate, TimeoutSeconds, Results, LeaseSeconds,
        }.Writes(Results).Refuses(StorageAccountUrl, "in-process stores with a connection string (its trio signs in with no " +
                                                        "Azure identity): pass the account's with --storage")
        .Runs((result, ct) => RunAsync(console, result, ct));

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var model = ModelOf(result);
        // The inputs first, before anything starts.
        var set = OrderGenerator.Generate(result.GetValue(Count), result.GetValue(InvalidRate), result.GetValue(Seed), BurstId.New());
        var label = $"in-process-{model.Text()}";
        // The store next, the one given or none: one that does not answer or refuses the tool is named before the
        // trio starts.
        var given = CommandSupport.StorageGiven(result) ? CommandSupport.StorageOptionsOf(result).ConnectionString : null;
        await using var burst = await InProcessBurst.OpenAsync(given, ct);
        await burst.Storage.EnsureReachableAsync(ct);
        if (burst.Leftovers is { } leftovers)
        {
            console.MarkupLineInterpolated($"{leftovers}");
        }

        console.MarkupLineInterpolated($"Storing into {burst.StorageEndpoint}{(burst.StartedAzurite ? " (Azurite started for this run)" : "")}.");
        // An Azurite that answered may be a trio's: one burst at a time there too.
        await using var lease = await CommandSupport.HoldStoreAsync(burst.Storage, result, "in-process", set.Burst, ct);
        return await lease.HoldingAsync(async held =>
        {
            var starting = $"Starting the trio in this process ({model.Text()})";
            await CommandSupport.WithProgressAsync(console, starting, null, async (_, _) =>
            {
                await burst.StartTrioAsync(model, console, held);
                return true;
            });
            await CommandSupport.ClearAsync(console, burst.Storage, held);

            var scheduledAt = burst.Schedule(set);
            console.MarkupLineInterpolated($"Scheduled burst {set.Burst}: {set.Count} orders at {scheduledAt:HH:mm:ss.fff}.");
            var watcher = new OutboxWatcher(burst.Storage, WatchPacing.Default);
            var report = await CommandSupport.WithProgressAsync(console, $"Waiting for {set.Orders.Count} blobs", set.Orders.Count, (progress, _) =>
                watcher.WatchAsync(WatchExpectation.For(set), scheduledAt, TimeSpan.FromSeconds(result.GetValue(TimeoutSeconds)), progress, CommandSupport.Lines(console), held));

            await lease.ConfirmAsync(held);
            BurstResults.Print(console, report, label);
            // Every in-process burst is a first one: the apps started with this command.
            var csv = await BurstResults.RecordAsync(report, label, result.GetValue(Results)!, BurstStart.Cold, set.Burst, lease.Holder.StartedAt, held);
            console.MarkupLineInterpolated($"Orders stored per second: {csv}");
            return WatchCommand.ExitCode(console, report);
        }, ct);
    }
}
