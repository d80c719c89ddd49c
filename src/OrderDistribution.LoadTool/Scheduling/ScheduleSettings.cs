using OrderDistribution.Messaging;

namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>Where and how a burst is scheduled.</summary>
/// <param name="Delay">Azure: seconds from now until the scheduled enqueue time.</param>
/// <param name="Sidecar">The sidecar's HTTP endpoint.</param>
/// <param name="SidecarGrpc">The sidecar's gRPC endpoint.</param>
/// <param name="State">The schedule record's path, for 'watch'.</param>
public sealed record ScheduleSettings(
    ScheduleTarget Target,
    int Delay,
    MessagingModel Model,
    Uri Sidecar,
    Uri SidecarGrpc,
    int MaxBulkBytes,
    string OrdersFile,
    string State);
