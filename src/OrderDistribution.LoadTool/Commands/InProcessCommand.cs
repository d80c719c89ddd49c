using System.CommandLine;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.InProcess;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.SidecarEmulator;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>in-process</c>: the main job without Dapr, Redis or RabbitMQ. The trio runs in this process behind the sidecar
/// emulator and stores into Azurite (started here when none answers); the burst is scheduled, watched and logged as
/// <c>run</c> does it, under the model label <c>in-process-bulk</c>, <c>-single</c> or <c>-bindings</c>.
/// </summary>
internal static class InProcessCommand
{
    private static readonly Option<string> Mode = new Option<string>("--model")
    {
        Description = "How the emulator delivers: bulk (pub/sub bulk), single (pub/sub, one message per request) or bindings.",
        DefaultValueFactory = _ => "bulk",
    }.AcceptOnlyFromAmong("bulk", "single", "bindings");

    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap) =>
        wrap(new Command("in-process", "Run a burst through the trio hosted in this process (no Dapr, Redis or RabbitMQ) into Azurite; append the result to the results log.")
            {
                Mode, Count, Seed, InvalidRate, TimeoutSeconds, Results, LeaseSeconds,
            },
            (result, ct) => RunAsync(console, result, ct));

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var mode = result.GetValue(Mode)!;
        // The inputs first, before anything starts.
        var set = OrderGenerator.Generate(result.GetValue(Count), result.GetValue(InvalidRate), result.GetValue(Seed), BurstId.New());
        var storageOptions = CommandSupport.StorageOptionsOf(result);
        var label = $"in-process-{mode}";

        await using var burst = await CommandSupport.WithProgressAsync(console, $"Starting the trio in this process ({mode})", null, (_, _) =>
            InProcessBurst.StartAsync(StyleOf(mode), storageOptions.ConnectionString ?? "UseDevelopmentStorage=true", ct));
        console.MarkupLineInterpolated($"Storing into {burst.StorageEndpoint}{(burst.StartedAzurite ? " (Azurite started for this run)" : "")}.");
        // An Azurite that answered may be a trio's: one burst at a time there too.
        await using var lease = await CommandSupport.HoldStoreAsync(burst.Storage, result, "in-process", set.Burst, ct);
        return await lease.HoldingAsync(async held =>
        {
            await CommandSupport.ClearAsync(console, burst.Storage, held);

            var scheduledAt = burst.Schedule(set);
            console.MarkupLineInterpolated($"Scheduled burst {set.Burst}: {set.Count} orders at {scheduledAt:HH:mm:ss.fff}.");
            var watcher = new OutboxWatcher(burst.Storage, WatchPacing.Default);
            var report = await CommandSupport.WithProgressAsync(console, $"Waiting for {set.Orders.Count} blobs", set.Orders.Count, (progress, status) =>
                watcher.WatchAsync(WatchExpectation.For(set), scheduledAt, TimeSpan.FromSeconds(result.GetValue(TimeoutSeconds)), progress, status, held));

            lease.ThrowIfLost();
            BurstResults.Print(console, report, label);
            // Every in-process burst is a first one: the apps started with this command.
            var csv = await BurstResults.RecordAsync(report, label, result.GetValue(Results)!, BurstStart.Cold, set.Burst, lease.Holder.StartedAt, held);
            console.MarkupLineInterpolated($"Orders stored per second: {csv}");
            return WatchCommand.ExitCode(console, report);
        }, ct);
    }

    private static DeliveryStyle StyleOf(string mode) => mode switch
    {
        "single" => DeliveryStyle.Single,
        "bindings" => DeliveryStyle.Binding,
        _ => DeliveryStyle.Bulk,
    };
}
