using System.Globalization;
using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// One row of the results log: one burst, or one storage-alone measurement. The same type writes the row and reads it
/// back, so that <c>report</c> reads exactly what <c>run</c> and <c>ceiling</c> write.
/// </summary>
/// <param name="Timestamp">When the orders were scheduled (UTC, <c>yyyy-MM-ddTHH:mm:ss</c>); in a hand-written log, any text.</param>
/// <param name="Label">The model label (<c>pubsub-bulk</c>, <c>pubsub-single</c>, <c>bindings</c>) or <c>storage-alone</c>.</param>
/// <param name="CycleSeconds">Until the last order was stored; none when nothing was stored.</param>
/// <param name="Missing">Orders not stored at the timeout (or uploads that failed).</param>
/// <param name="Start">Cold or warm; none in rows written before the log had the column, or by a run not told.</param>
public sealed record ResultsRow(string Timestamp, string Label, int Count, double? CycleSeconds, int Missing, BurstStart? Start)
{
    private const string TimestampFormat = "yyyy-MM-ddTHH:mm:ss";

    /// <summary>
    /// The header a new log starts with. Rows of an older log (six columns) read as rows without a start; new rows
    /// appended to such a log carry a seventh cell that Markdown viewers leave out under the old header.
    /// </summary>
    public const string Header =
        "| timestamp | model | count | cycle time s | orders/s | missing | start |\n| --- | --- | ---: | ---: | ---: | ---: | --- |\n";

    public bool Complete => Missing == 0 && CycleSeconds is > 0;

    public double? OrdersPerSecond => CycleSeconds is > 0 and var seconds ? Count / seconds : null;

    public static ResultsRow Of(DateTimeOffset scheduledAt, string label, int count, TimeSpan? cycleTime, int missing, BurstStart? start) =>
        new(scheduledAt.UtcDateTime.ToString(TimestampFormat, CultureInfo.InvariantCulture), label, count, cycleTime?.TotalSeconds, missing, start);

    public static ResultsRow Of(string label, WatchReport report, BurstStart? start) =>
        Of(report.ScheduledAt, label, report.Expected, report.CycleTime, report.Missing.Count, start);

    /// <summary>The name of the per-second series written beside the log for a run scheduled at <paramref name="scheduledAt"/>.</summary>
    public static string CsvFileName(DateTimeOffset scheduledAt, string label) =>
        string.Create(CultureInfo.InvariantCulture, $"{scheduledAt.UtcDateTime:yyyyMMdd-HHmmss}-{label}.csv");

    /// <summary>This row's per-second series file name, when its timestamp is one the tool wrote.</summary>
    public string? CsvFileName() =>
        DateTime.TryParseExact(Timestamp, TimestampFormat, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var at)
            ? CsvFileName(new DateTimeOffset(at, TimeSpan.Zero), Label)
            : null;

    public string Format() => string.Create(CultureInfo.InvariantCulture,
        $"| {Timestamp} | {Label} | {Count} | {CycleSeconds:0.0} | {OrdersPerSecond:0} | {Missing} | {Start?.ToString().ToLowerInvariant()} |\n");

    /// <summary>A row of the log, or null for any other line (the header, its rule, text around the table).</summary>
    public static ResultsRow? TryParse(string line)
    {
        var text = line.Trim();
        if (!text.StartsWith('|') || !text.EndsWith('|'))
        {
            return null;
        }

        var cells = text[1..^1].Split('|').Select(c => c.Trim()).ToArray();
        if (cells.Length < 6
            || cells[1].Length == 0
            || !int.TryParse(cells[2], NumberStyles.None, CultureInfo.InvariantCulture, out var count)
            || !int.TryParse(cells[5], NumberStyles.None, CultureInfo.InvariantCulture, out var missing))
        {
            return null;
        }

        double? cycle = null;
        if (cells[3].Length > 0)
        {
            if (!double.TryParse(cells[3], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var seconds))
            {
                return null;
            }

            cycle = seconds;
        }

        BurstStart? start = cells.Length > 6 && Enum.TryParse<BurstStart>(cells[6], ignoreCase: true, out var parsed) ? parsed : null;
        return new ResultsRow(cells[0], cells[1], count, cycle, missing, start);
    }
}
