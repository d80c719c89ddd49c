using System.Globalization;
using OrderDistribution.LoadTool.Ceiling;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The one line a burst or a storage-alone measurement ends with. Scripts and people read it, so it is written as
/// plain text, never wrapped to the terminal's width (piped output has 80 columns to Spectre.Console).
/// </summary>
public static class ResultLine
{
    /// <summary>Writes <paramref name="line"/> as it is, past the console's width and markup.</summary>
    public static void Write(IAnsiConsole console, string line)
    {
        console.Profile.Out.Writer.WriteLine(line);
        console.Profile.Out.Writer.Flush();
    }

    public static string Of(CeilingResult measured) => string.Create(CultureInfo.InvariantCulture,
        $"{StorageCeiling.Label}: {measured.Count - measured.Failed}/{measured.Count} uploads in " +
        $"{measured.Elapsed.TotalSeconds:0.000} s, {measured.UploadsPerSecond:0} uploads/s, {measured.InFlight} in " +
        $"flight, {measured.Failed} failed{(measured.FirstFailure is { } why ? $" (first: {why})" : "")}" +
        $"{(measured.Failed > 0 ? "; incomplete: the rate is of the uploads that succeeded" : "")}");

    /// <summary>
    /// The burst's line; one that timed out says so, and its rate is of the orders stored, never of the count.
    /// </summary>
    public static string Of(WatchReport report, string model) => string.Create(CultureInfo.InvariantCulture,
        $"{model}: {report.Stored}/{report.Expected} orders stored, " +
        $"{(report.CycleTime is { } cycle ? $"cycle time {cycle.TotalSeconds:0.000} s" : "no cycle time")}, " +
        $"{(report.OrdersPerSecond is { } rate ? $"{rate:0} orders/s" : "no rate")}, " +
        $"{string.Join(", ", report.CountPerContainer.Select(c => $"{c.Key} {c.Value}"))}, " +
        $"{report.Missing.Count} missing, {report.Duplicated.Count} duplicated" +
        $"{PoisonSummary(report)}{Incomplete(report)}");

    private static string Incomplete(WatchReport report) =>
        report.Complete
            ? ""
            : string.Create(CultureInfo.InvariantCulture,
                $"; INCOMPLETE: timed out with {report.Missing.Count} of {report.Expected} not stored, " +
                $"the rate is of the {report.Stored} stored");

    private static string PoisonSummary(WatchReport report) =>
        report.PoisonExpected == 0
            ? ""
            : string.Create(CultureInfo.InvariantCulture,
                $"; {report.Stored} valid stored, {report.PoisonExpected - report.PoisonStored.Count} poison " +
                $"dropped (expected){DeadLettered(report)}{(report.PoisonStored.Count > 0
                    ? $", {report.PoisonStored.Count} poison stored (should have been dropped)"
                    : "")}");

    /// <summary>How many of the poison were read back from the dead-letter queue, and how many are not there.</summary>
    private static string DeadLettered(WatchReport report) =>
        report.PoisonDeadLettered is not { } found
            ? ""
            : string.Create(CultureInfo.InvariantCulture,
                $", {found} dead-lettered, {report.PoisonExpected - found} not on the dead-letter queue");
}
