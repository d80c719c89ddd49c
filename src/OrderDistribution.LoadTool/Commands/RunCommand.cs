using System.CommandLine;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Scheduling;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>run</c>: clear, generate, schedule and watch; one row in the results log and the per-second series beside it.</summary>
internal static class RunCommand
{
    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap, Action<IServiceCollection>? configurePublishing) =>
        wrap(new Command("run", "clear, generate, schedule and watch; append the result to the results log.")
            {
                Count, Seed, InvalidRate, Target, ScheduleDelay, Model, PubSubMode, Sidecar, SidecarGrpc, MaxBulkBytes,
                TimeoutSeconds, PollMilliseconds, MaxPollMilliseconds, Results, Start,
            },
            (result, ct) => RunAsync(console, result, configurePublishing, ct));

    private static async Task<int> RunAsync(
        IAnsiConsole console, ParseResult result, Action<IServiceCollection>? configurePublishing, CancellationToken ct)
    {
        // Both dependencies first, before anything is changed or printed: a missing one is named in two lines.
        var storage = await CommandSupport.OpenStorageAsync(result, ct);
        using (var sidecar = CommandSupport.SidecarClient(result))
        {
            await SidecarMetadata.ReadAsync(sidecar, ct);
        }

        if (await ClearCommand.RunAsync(console, storage, ct) is not ExitCodes.Done and var cleared)
        {
            return cleared;
        }

        foreach (var step in new Func<IAnsiConsole, ParseResult, CancellationToken, Task<int>>[]
                 { GenerateCommand.RunAsync, (c, r, t) => ScheduleCommand.RunAsync(c, r, configurePublishing, t) })
        {
            if (await step(console, result, ct) is not ExitCodes.Done and var failed)
            {
                return failed;
            }
        }

        var report = await WatchCommand.WatchAsync(console, result, storage, await WatchCommand.ScheduleRecordOrNullAsync(result, ct), ct);
        var label = CommandSupport.RunLabel(result.GetValue(Model), result.GetValue(PubSubMode)!);
        WatchCommand.Print(console, report, label);
        await ResultsLog.AppendAsync(result.GetValue(Results)!, ResultsRow.Of(label, report, StartOf(result)), ct);
        var csv = await StoredSeries.From(report).WriteCsvBesideAsync(result.GetValue(Results)!, report.ScheduledAt, label, ct);
        console.MarkupLineInterpolated($"Orders stored per second: {csv}");
        return WatchCommand.ExitCode(console, report);
    }

    /// <summary>--start, else cold in Azure, where the receivers scale from zero and every burst is a first one.</summary>
    public static BurstStart? StartOf(ParseResult result) =>
        result.GetValue(Start) ?? (result.GetValue(Target) == ScheduleTarget.Azure ? BurstStart.Cold : null);
}
