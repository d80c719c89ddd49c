using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.DeadLetters;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Messaging;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Bursts;

/// <summary>
/// One measured burst: clear, generate, schedule and watch under one hold on the store; one result in the results file
/// and its views beside it.
/// </summary>
/// <param name="configurePublishing">
/// Changes the publishing services before use (tests put an emulator behind them).
/// </param>
public sealed class BurstRun(IAnsiConsole console, ToolStore store, Action<IServiceCollection>? configurePublishing)
{
    /// <returns>The exit code: done when every valid order is a blob.</returns>
    public async Task<int> RunAsync(RunSettings settings, CancellationToken ct)
    {
        // The settings are valid (the parser checked them); both dependencies next, before anything is changed or
        // printed: a missing one is named in two lines.
        settings.Spec.EnsureValidOrders();
        var storage = await store.OpenAsync(ct);
        SidecarMetadata? metadata;
        using (var sidecar = SidecarMetadata.Client(settings.Schedule.Sidecar))
        {
            metadata = await SidecarMetadata.ReadAsync(sidecar, ct);
        }

        // One burst at a time per store, from before the clear until its row is written; refused at once, before
        // anything changes, while another holds the store.
        var burst = BurstId.New();
        await using var lease = await store.HoldAsync(storage, "run", burst, ct);
        return await lease.HoldingAsync(async held =>
        {
            var schedule = settings.Schedule;
            // The model the trio runs, checked before the clear: another one is refused with the last burst intact.
            var scheduler = new BurstScheduler(console, schedule, store, configurePublishing);
            scheduler.CheckSidecar(metadata);
            await BurstSteps.ClearAsync(console, storage, held);
            await BurstSteps.GenerateAsync(console, settings.Spec, schedule.OrdersFile, burst, null, held);
            // Read back as the orders' ids and deliveries only: the orders themselves are streamed to the sidecar.
            var index = await OrderFile.ReadIndexAsync(schedule.OrdersFile, held);
            // The burst's window, from scheduling to the end of the watch: the local run's processes and queues, or
            // for a burst in Azure its Service Bus queues (never a local run's, even while one is up).
            await using var measurement = schedule.Target == ScheduleTarget.Azure
                ? BurstMeasurement.InAzure(settings.ServiceBusNamespace)
                : await BurstMeasurement.LocalAsync(settings.Processes, console.WriteLine);
            if (!await scheduler.ScheduleAsync(index, held))
            {
                return ExitCodes.Incomplete;
            }

            var record = await ScheduleRecord.ReadAsync(schedule.State, held);
            var report = await BurstSteps.WatchAsync(
                console, storage, WatchExpectation.For(index), record.ScheduledAt, settings.Watch, held);
            if (schedule.Target != ScheduleTarget.Azure)
            {
                report = report with
                {
                    PoisonDeadLettered = await LocalDeadLetters.CountAsync(settings.Processes, index.Poison, held),
                };
            }

            // In Azure the instant is in storage's time: the queues were read by this machine's clock.
            var (cost, queues) = await measurement.StopAsync(
                record.ScheduledAt - TimeSpan.FromSeconds(record.ClockSkewSeconds ?? 0));
            // No result of a burst that may have shared the store (asked again if storage was away since the last
            // renewal).
            await lease.ConfirmAsync(held);
            var label = schedule.Model.Text();
            BurstSteps.PrintResult(console, report, label, cost);
            var csv = await BurstSteps.RecordResultAsync(
                report, label, settings.Results, settings.Start, burst, lease.Holder.StartedAt, storage.Time, held,
                cost, queues);
            console.MarkupLineInterpolated($"Orders stored per second: {csv}");
            if (queues is not null)
            {
                console.MarkupLineInterpolated($"Orders waiting: {queues.Summary()}.");
                console.MarkupLineInterpolated(
                    $"Orders waiting per queue and second: {Path.ChangeExtension(csv, SeriesCsv.QueuesSuffix)}");
            }

            if (queues?.Fault is { } fault)
            {
                console.MarkupLineInterpolated($"[yellow]Queues: {fault}.[/]");
            }

            return BurstSteps.ExitCode(console, report);
        }, ct);
    }
}
