using OrderDistribution.LoadTool.Bursts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Messaging;
using Spectre.Console;

namespace OrderDistribution.LoadTool.InProcess;

/// <summary>
/// <c>in-process</c>: a burst through the trio hosted in this process (<see cref="InProcessBurst"/>), scheduled,
/// watched and logged as <c>run</c> does it, under the label <c>in-process-</c> and the model.
/// </summary>
public sealed class InProcessRun(IAnsiConsole console)
{
    /// <returns>The exit code: done when every valid order is a blob.</returns>
    public async Task<int> RunAsync(InProcessSettings settings, CancellationToken ct)
    {
        var model = settings.Model;
        // The inputs first, before anything starts.
        var set = settings.Spec.Generate(BurstId.New());
        var label = $"in-process-{model.Text()}";
        // The store next, the one given or none: one that does not answer or refuses the tool is named before the
        // trio starts.
        await using var burst = await InProcessBurst.OpenAsync(settings.Storage, ct);
        await burst.Storage.EnsureReachableAsync(ct);
        if (burst.Leftovers is { } leftovers)
        {
            console.MarkupLineInterpolated($"{leftovers}");
        }

        var started = burst.StartedAzurite ? " (Azurite started for this run)" : "";
        console.MarkupLineInterpolated($"Storing into {burst.StorageEndpoint}{started}.");
        // An Azurite that answered may be a trio's: one burst at a time there too.
        await using var lease = await burst.Storage.HoldAsync(
            LeaseHolder.Now("in-process", set.Burst, burst.Storage.Time), settings.Lease, ct);
        return await lease.HoldingAsync(async held =>
        {
            await console.WithProgressAsync($"Starting the trio in this process ({model.Text()})", null, async (_, _) =>
            {
                await burst.StartTrioAsync(model, console, held);
                return true;
            });
            await BurstSteps.ClearAsync(console, burst.Storage, held);

            var scheduledAt = burst.Schedule(set);
            console.MarkupLineInterpolated(
                $"Scheduled burst {set.Burst}: {set.Count} orders at {scheduledAt:HH:mm:ss.fff}.");
            var watch = new WatchSettings(settings.Timeout, WatchPacing.Default);
            var report = await BurstSteps.WatchAsync(
                console, burst.Storage, WatchExpectation.For(set), scheduledAt, watch, held);
            report = report with { PoisonDeadLettered = await burst.PoisonDeadLetteredAsync(set) };

            await lease.ConfirmAsync(held);
            BurstSteps.PrintResult(console, report, label);
            // Every in-process burst is a first one: the apps started with this command.
            var csv = await BurstSteps.RecordResultAsync(
                report, label, settings.Results, BurstStart.Cold, set.Burst, lease.Holder.StartedAt, burst.Storage.Time,
                held);
            console.MarkupLineInterpolated($"Orders stored per second: {csv}");
            return BurstSteps.ExitCode(console, report);
        }, ct);
    }
}
