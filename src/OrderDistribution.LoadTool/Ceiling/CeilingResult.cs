namespace OrderDistribution.LoadTool.Ceiling;

/// <summary>What storage alone managed: every upload's end, and the failures.</summary>
/// <param name="StartedAt">When the first upload began: second 0 of the per-second series.</param>
/// <param name="Elapsed">From the first upload's start to the last one's end.</param>
/// <param name="FirstFailure">Why the first failed upload failed, in one line.</param>
/// <param name="LeftBehind">The container, when what the measurement wrote could not be removed afterwards.</param>
public sealed record CeilingResult(
    int Count,
    int InFlight,
    DateTimeOffset StartedAt,
    TimeSpan Elapsed,
    IReadOnlyList<DateTimeOffset> UploadedAt,
    int Failed,
    string? FirstFailure,
    string? LeftBehind)
{
    public double UploadsPerSecond => Elapsed > TimeSpan.Zero ? (Count - Failed) / Elapsed.TotalSeconds : 0;
}
