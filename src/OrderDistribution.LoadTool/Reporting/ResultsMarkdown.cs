using System.Globalization;
using System.Text;
using OrderDistribution.LoadTool.Costs;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The results log people read (<c>LOG.md</c>): one Markdown table row per record of the results file, rendered whole
/// each time a record is written.
/// </summary>
public static class ResultsMarkdown
{
    public const string Header =
        "| timestamp | model | count | cycle time s | orders/s | missing | start | burst | began | ended | complete |" +
        " apps CPU s | sidecars CPU s | broker CPU s | store CPU s | peak MiB | cost |\n" +
        "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- | --- | --- |" +
        " ---: | ---: | ---: | ---: | ---: | ---: |\n";

    public static string Of(IEnumerable<BurstResult> results)
    {
        var text = new StringBuilder(
            "# Results\n\nRendered from the results file beside it (one JSON line per burst); ");
        text.Append("`order-load report` compares them.\n\n").Append(Header);
        foreach (var result in results)
        {
            text.Append(Row(result));
        }

        return text.ToString();
    }

    public static string Row(BurstResult result)
    {
        var cost = result.Cost;
        return string.Create(CultureInfo.InvariantCulture,
            $"| {result.ScheduledAt.UtcDateTime:yyyy-MM-ddTHH:mm:ss} | {result.Label} | {result.Count} | " +
            $"{result.CycleSeconds:0.0} | {result.OrdersPerSecond:0} | {result.Missing} | " +
            $"{result.Start?.ToString().ToLowerInvariant()} | {result.Burst} | {Instant(result.Began)} | " +
            $"{Instant(result.Ended)} | {(result.Complete ? "yes" : "no")} | " +
            $"{cost?.CpuSecondsSeen(ComponentRole.App):0.00} | {cost?.CpuSecondsSeen(ComponentRole.Sidecar):0.00} | " +
            $"{cost?.CpuSecondsSeen(ComponentRole.Broker):0.00} | {cost?.CpuSecondsSeen(ComponentRole.Store):0.00} | " +
            $"{cost?.PeakMiBSeen:0} | {cost?.Price:0.000000} |\n");
    }

    private static string? Instant(DateTimeOffset? at) =>
        at?.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.fffZ", CultureInfo.InvariantCulture);
}
