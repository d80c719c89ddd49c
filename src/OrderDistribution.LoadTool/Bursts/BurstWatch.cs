using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.DeadLetters;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Bursts;

/// <summary>
/// <c>watch</c>: waits until every valid order of a scheduled burst is a blob, then reports the cycle time.
/// </summary>
public sealed class BurstWatch(IAnsiConsole console, ToolStore store)
{
    /// <param name="state">The schedule record 'schedule' wrote, if there is one.</param>
    /// <param name="scheduledAt">When the orders were scheduled, if given instead of the record's time.</param>
    /// <returns>The exit code: done when every valid order is a blob.</returns>
    public async Task<int> RunAsync(
        string ordersFile, string state, DateTimeOffset? scheduledAt, WatchSettings settings, CancellationToken ct)
    {
        var record = File.Exists(state) ? await ScheduleRecord.ReadAsync(state, ct) : null;
        // The inputs first (a missing file is bad input, exit 2), then storage.
        var index = await OrderFile.ReadIndexAsync(ordersFile, ct);
        var expected = WatchExpectation.For(index);
        if (record?.Burst is { } scheduled && scheduled != expected.Burst.Value && scheduledAt is null)
        {
            throw new InvalidDataException(
                $"The schedule record {state} is of burst {scheduled}, but the orders file {ordersFile} holds " +
                $"burst {expected.Burst}: the file was generated again after the schedule, and watch needs the one " +
                "scheduled");
        }

        var at = scheduledAt ?? record?.ScheduledAt ?? throw new FileNotFoundException(
            $"No schedule record at {state}: run 'schedule' first, or pass --scheduled-at.");
        var storage = await store.OpenAsync(ct);
        var report = await BurstSteps.WatchAsync(console, storage, expected, at, settings, ct);
        // A local store is watched beside the local run, whose dead-letter queue holds the poison.
        if (new Uri(storage.Endpoint).IsLoopback)
        {
            report = report with
            {
                PoisonDeadLettered = await LocalDeadLetters.CountAsync(LocalProcesses.DefaultFolder, index.Poison, ct),
            };
        }

        BurstSteps.PrintResult(console, report, record?.Model ?? "watch");
        return BurstSteps.ExitCode(console, report);
    }
}
