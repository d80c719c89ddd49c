namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>What a schedule put on the ingress queue, and why the rest did not go.</summary>
/// <param name="Attempted">Entries tried, poison included.</param>
/// <param name="Failed">Ids of the entries not confirmed, in order.</param>
/// <param name="FirstFailure">
/// The first failure's cause as the sidecar or broker gave it, in one line (null when none was given).
/// </param>
public sealed record ScheduleOutcome(int Attempted, IReadOnlyList<long> Failed, string? FirstFailure)
{
    public int Scheduled => Attempted - Failed.Count;
}
