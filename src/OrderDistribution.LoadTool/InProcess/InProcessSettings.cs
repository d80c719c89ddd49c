using OrderDistribution.LoadTool.Generation;
using OrderDistribution.Messaging;

namespace OrderDistribution.LoadTool.InProcess;

/// <summary>What <see cref="InProcessRun"/> runs.</summary>
/// <param name="Storage">The connection string of the store given, or null for the local Azurite.</param>
public sealed record InProcessSettings(
    MessagingModel Model, BurstSpec Spec, TimeSpan Timeout, string Results, string? Storage, TimeSpan Lease);
