using System.CommandLine;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Messaging;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>run</c>: clear, generate, schedule and watch; one row in the results log and the per-second series beside it.</summary>
internal static class RunCommand
{
    public static Command Create(IAnsiConsole console, Action<IServiceCollection>? configurePublishing) =>
        new Command("run", "clear, generate, schedule and watch; append the result to the results log.")
        {
            Count, Seed, InvalidRate, Target, ScheduleDelay, Model, Sidecar, SidecarGrpc, MaxBulkBytes,
            TimeoutSeconds, PollMilliseconds, MaxPollMilliseconds, Results, Start, LeaseSeconds, Processes,
        }.Writes(OrdersFile, State, Results).Runs((result, ct) => RunAsync(console, result, configurePublishing, ct));

    private static async Task<int> RunAsync(
        IAnsiConsole console, ParseResult result, Action<IServiceCollection>? configurePublishing, CancellationToken ct)
    {
        // The options are valid (the parser checked them); both dependencies next, before anything is changed or
        // printed: a missing one is named in two lines.
        GenerateCommand.CheckLeavesValidOrders(result);
        var storage = await CommandSupport.OpenStorageAsync(result, ct);
        using (var sidecar = CommandSupport.SidecarClient(result))
        {
            await SidecarMetadata.ReadAsync(sidecar, ct);
        }

        // One burst at a time per store, from before the clear until its row is written; refused at once, before
        // anything changes, while another holds the store.
        var burst = BurstId.New();
        await using var lease = await CommandSupport.HoldStoreAsync(storage, result, "run", burst, ct);
        return await lease.HoldingAsync(async held =>
        {
            await CommandSupport.ClearAsync(console, storage, held);
            await GenerateCommand.WriteAsync(console, result, burst, held);
            // Read back as the orders' ids and deliveries only: the orders themselves are streamed to the sidecar.
            var index = await OrderFile.ReadIndexAsync(result.GetValue(OrdersFile)!, held);
            // The burst's window, from scheduling to the end of the watch: the local run's processes and queues (none
            // for a burst in Azure, even while a local run is up).
            await using var measurement = await LocalRunMeasurement.StartAsync(
                result.GetValue(Target) == ScheduleTarget.Azure ? "" : result.GetValue(Processes)!);
            if (!await ScheduleCommand.ScheduleAsync(console, result, index, configurePublishing, held))
            {
                return ExitCodes.Incomplete;
            }

            var record = await ScheduleRecord.ReadAsync(result.GetValue(State)!, held);
            var report = await WatchCommand.WatchAsync(console, result, storage, WatchExpectation.For(index), record.ScheduledAt, held);
            var (cost, queues) = await measurement.StopAsync();
            // No result of a burst that may have shared the store (asked again if storage was away since the last renewal).
            await lease.ConfirmAsync(held);
            var label = ModelOf(result).Text();
            BurstResults.Print(console, report, label, cost);
            var csv = await BurstResults.RecordAsync(
                report, label, result.GetValue(Results)!, StartOf(result), burst, lease.Holder.StartedAt, held, cost, queues);
            console.MarkupLineInterpolated($"Orders stored per second: {csv}");
            return WatchCommand.ExitCode(console, report);
        }, ct);
    }

    /// <summary>--start, else cold in Azure, where the receivers scale from zero and every burst is a first one.</summary>
    public static BurstStart? StartOf(ParseResult result) =>
        result.GetValue(Start) ?? (result.GetValue(Target) == ScheduleTarget.Azure ? BurstStart.Cold : null);
}
