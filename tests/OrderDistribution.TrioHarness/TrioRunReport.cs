using System.Globalization;

namespace OrderDistribution.TrioHarness;

public sealed record TrioRunReport(
    int Orders,
    int Valid,
    int Stored,
    int Poison,
    int PoisonDropped,
    int Lost,
    int Duplicated,
    int Misplaced,
    int ValidDropped,
    int DropStatuses,
    int DropLogLines,
    bool Quiet,
    TimeSpan Elapsed,
    TimeSpan LongestAnswer,
    TimeSpan Deadline,
    int Requests,
    int Retries,
    int PublishesRefused,
    int LogLines,
    string PerQueue)
{
    public bool Proven =>
        Quiet && Stored == Valid && Lost == 0 && Duplicated == 0 && Misplaced == 0 && ValidDropped == 0
        && PoisonDropped == Poison && DropLogLines == DropStatuses && AnsweredWithinDeadline;

    /// <summary>
    /// The apps stop at their deadline; the answer then still has to travel, hence a margin of a second.
    /// </summary>
    public bool AnsweredWithinDeadline => LongestAnswer <= Deadline + TimeSpan.FromSeconds(1);

    public string Line(string name) => string.Create(CultureInfo.InvariantCulture,
        $"{name}: {Orders} orders, {Stored} valid stored, {PoisonDropped} poison dropped, {Lost} lost, {Duplicated} " +
        $"duplicated, " +
        $"{Elapsed.TotalSeconds:0.0} s, {LogLines} log lines");

    public string Details => string.Create(CultureInfo.InvariantCulture,
        $"  {Requests} requests, {Retries} entries answered RETRY, {PublishesRefused} publishes refused by the " +
        $"broker, " +
        $"{DropStatuses} dead letters with {DropLogLines} drop log lines, {Misplaced} misplaced or wrong blobs, " +
        $"longest answer {LongestAnswer.TotalSeconds:0.00} s (deadline {Deadline.TotalSeconds:0} s, plus 1 s for the " +
        $"answer's way back){(Quiet ? "" : ", NOT QUIET at the timeout")}\n  {PerQueue}");
}
