using System.Globalization;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// One row of the results log: one burst, or one storage-alone measurement. The same type writes the row and reads it
/// back, so that <c>report</c> reads exactly what <c>run</c> and <c>ceiling</c> write.
/// </summary>
/// <param name="Timestamp">
/// When the orders were scheduled (UTC, <c>yyyy-MM-ddTHH:mm:ss</c>); in a hand-written log, any text.
/// </param>
/// <param name="Label">
/// The model label (<c>pubsub-bulk</c>, <c>pubsub-single</c>, <c>bindings</c>) or <c>storage-alone</c>.
/// </param>
/// <param name="CycleSeconds">Until the last order was stored; none when nothing was stored.</param>
/// <param name="Missing">Orders not stored at the timeout (or uploads that failed).</param>
/// <param name="Start">Cold or warm; none in rows written before the log had the column, or by a run not told.</param>
public sealed record ResultsRow(
    string Timestamp, string Label, int Count, double? CycleSeconds, int Missing, BurstStart? Start)
{
    private const string TimestampFormat = "yyyy-MM-ddTHH:mm:ss";

    private const string InstantFormat = "yyyy-MM-ddTHH:mm:ss.fffZ";

    /// <summary>
    /// The header a new log starts with. Rows of an older log (six or seven columns) read as rows without a start, a
    /// burst or its times; new rows appended to such a log carry cells that Markdown viewers leave out under the old
    /// header.
    /// </summary>
    public const string Header =
        "| timestamp | model | count | cycle time s | orders/s | missing | start | burst | began | ended | complete |" +
        RowCost.HeaderCells + "\n" +
        "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- | --- | --- |" + RowCost.RuleCells + "\n";

    /// <summary>Where the cost cells begin: after the eleven cells every row before them has had.</summary>
    private const int CostCell = 11;

    /// <summary>
    /// The burst measured (storage alone too has one: its blobs are named as a burst's); none in older rows.
    /// </summary>
    public BurstId? Burst { get; init; }

    /// <summary>
    /// When the burst took the store (before it cleared it), UTC, to the millisecond; none in older rows.
    /// </summary>
    public DateTimeOffset? Began { get; init; }

    /// <summary>When its watch (or the uploads) ended.</summary>
    public DateTimeOffset? Ended { get; init; }

    /// <summary>
    /// What the burst cost the processes of the local run; none where they could not be seen, and in older rows.
    /// </summary>
    public RowCost? Cost { get; init; }

    public bool Complete => Missing == 0 && CycleSeconds is > 0;

    /// <summary>
    /// The orders stored over the cycle time: an incomplete burst is credited with what it stored, not its count.
    /// </summary>
    public double? OrdersPerSecond =>
        CycleSeconds is > 0 and var seconds && Count > Missing ? (Count - Missing) / seconds : null;

    public static ResultsRow Of(
        DateTimeOffset scheduledAt, string label, int count, TimeSpan? cycleTime, int missing, BurstStart? start) =>
        new(TimestampOf(scheduledAt), label, count, cycleTime?.TotalSeconds, missing, start);

    /// <summary>The timestamp cell of a burst scheduled at <paramref name="scheduledAt"/>.</summary>
    public static string TimestampOf(DateTimeOffset scheduledAt) =>
        scheduledAt.UtcDateTime.ToString(TimestampFormat, CultureInfo.InvariantCulture);

    public static ResultsRow Of(string label, WatchReport report, BurstStart? start) =>
        Of(report.ScheduledAt, label, report.Expected, report.CycleTime, report.Missing.Count, start);

    /// <summary>
    /// This row's per-second series file name, when its timestamp is one the tool wrote: the scheduled second, the
    /// burst (so that two runs in one second write two files) and the label, marked when the burst was incomplete.
    /// </summary>
    public string? CsvFileName() =>
        DateTime.TryParseExact(Timestamp, TimestampFormat, CultureInfo.InvariantCulture,
            DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var at)
            ? string.Create(CultureInfo.InvariantCulture,
                $"{at:yyyyMMdd-HHmmss}{(Burst is { } burst ? $"-{burst}" : "")}-{Label}" +
                $"{(Complete || Burst is null ? "" : "-incomplete")}.csv")
            : null;

    public string Format() => string.Create(CultureInfo.InvariantCulture,
        $"| {Timestamp} | {Label} | {Count} | {CycleSeconds:0.0} | {OrdersPerSecond:0} | {Missing} | " +
        $"{Start?.ToString().ToLowerInvariant()} | {Burst} | {InstantText(Began)} | {InstantText(Ended)} | " +
        $"{(Complete ? "yes" : "no")} |{Cost?.Format() ?? EmptyCost}\n");

    private static string? InstantText(DateTimeOffset? at) =>
        at?.UtcDateTime.ToString(InstantFormat, CultureInfo.InvariantCulture);

    private static readonly string EmptyCost = string.Concat(Enumerable.Repeat("  |", RowCost.Cells));

    /// <summary>
    /// Whether this row's burst and <paramref name="other"/>'s held the store at the same time (both must say when).
    /// </summary>
    public bool Overlaps(ResultsRow other) =>
        Began < other.Ended && other.Began < Ended;

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
            if (!double.TryParse(
                    cells[3], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var seconds))
            {
                return null;
            }

            cycle = seconds;
        }

        BurstStart? start = cells.Length > 6 && Enum.TryParse<BurstStart>(cells[6], ignoreCase: true, out var parsed)
            ? parsed
            : null;
        return new ResultsRow(cells[0], cells[1], count, cycle, missing, start)
        {
            Burst = cells.Length > 7
                    && long.TryParse(cells[7], NumberStyles.None, CultureInfo.InvariantCulture, out var burst)
                ? new BurstId(burst)
                : null,
            Began = cells.Length > 8 ? Instant(cells[8]) : null,
            Ended = cells.Length > 9 ? Instant(cells[9]) : null,
            Cost = cells.Length > CostCell ? RowCost.Parse(cells[CostCell..]) : null,
        };
    }

    private static DateTimeOffset? Instant(string cell) =>
        DateTimeOffset.TryParseExact(
            cell, InstantFormat, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at)
            ? at
            : null;

    /// <summary>
    /// The rows whose bursts overlapped another row's in time: none of them measured the store alone.
    /// </summary>
    /// <returns>Their places in <paramref name="rows"/>.</returns>
    public static IReadOnlySet<int> Overlapped(IReadOnlyList<ResultsRow> rows)
    {
        var overlapped = new HashSet<int>();
        for (var i = 0; i < rows.Count; i++)
        {
            for (var j = i + 1; j < rows.Count; j++)
            {
                if (rows[i].Overlaps(rows[j]))
                {
                    overlapped.Add(i);
                    overlapped.Add(j);
                }
            }
        }

        return overlapped;
    }
}
