using Azure.Core;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Scheduling;

namespace OrderDistribution.LoadTool.Bursts;

/// <summary>
/// What <see cref="BurstRun"/> runs: the burst to make, how to schedule and watch it, where its row goes.
/// </summary>
/// <param name="Start">Cold or warm, as kept in the burst's result; null: not recorded.</param>
/// <param name="Processes">The folder naming a local run's processes and broker, measured over the burst.</param>
/// <param name="ServiceBusNamespace">
/// In Azure, the namespace whose queues are sampled over the burst; null: none.
/// </param>
public sealed record RunSettings(
    BurstSpec Spec,
    ScheduleSettings Schedule,
    WatchSettings Watch,
    string Results,
    BurstStart? Start,
    string Processes,
    ResourceIdentifier? ServiceBusNamespace = null);
