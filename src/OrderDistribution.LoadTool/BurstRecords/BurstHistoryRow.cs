namespace OrderDistribution.LoadTool.BurstRecords;

/// <summary>
/// One burst in the history (<see cref="BurstHistory.Header"/>'s columns): when it was scheduled, how it started, each
/// app's replicas at the instant and at the end, what its apps cost, whether they ran with tiered compilation, and
/// what its telemetry cost. What was not read is written as "-" (replicas: "?"), so that the row keeps its columns.
/// </summary>
/// <param name="Cost">CPU-seconds, peak MiB and USD, each a number or "-".</param>
/// <param name="TieredCompilation">How the apps ran: on, off or mixed.</param>
/// <param name="Telemetry">MB billed by Log Analytics and their USD, each a number or "-".</param>
public sealed record BurstHistoryRow(
    ScheduledInstant? Instant, string Model, string Start, string ReplicasAtInstant, string ReplicasAtEnd,
    IReadOnlyList<string> Cost, string TieredCompilation, IReadOnlyList<string> Telemetry)
{
    public string Format() => string.Join('\t', new[]
    {
        Instant?.Text ?? "-", Model, Start, Or(ReplicasAtInstant, "?"), Or(ReplicasAtEnd, "?"),
    }.Concat(Cost).Append(TieredCompilation).Concat(Telemetry));

    private static string Or(string text, string none) => text.Length > 0 ? text : none;
}
