using System.Globalization;
using System.Text;
using OrderDistribution.LoadTool.Watching;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>Orders stored per second since scheduling, by each order's own stored time: a stall or a tail shows at a glance.</summary>
public sealed class StoredSeries
{
    private const int MaxBars = 40;

    private StoredSeries(IReadOnlyList<int> perSecond) => PerSecond = perSecond;

    /// <summary>Index s: orders stored in [s, s+1) seconds after scheduling (before scheduling counts as second 0).</summary>
    public IReadOnlyList<int> PerSecond { get; }

    public static StoredSeries From(WatchReport report) => From(report.ScheduledAt, report.StoredTimes);

    /// <param name="start">Second 0: when the orders were scheduled (or the uploads began).</param>
    /// <param name="storedTimes">When each order was stored.</param>
    public static StoredSeries From(DateTimeOffset start, IReadOnlyCollection<DateTimeOffset> storedTimes)
    {
        if (storedTimes.Count == 0)
        {
            return new StoredSeries([]);
        }

        var seconds = storedTimes.Select(t => Math.Max(0, (int)Math.Floor((t - start).TotalSeconds))).ToList();
        var series = new int[seconds.Max() + 1];
        foreach (var second in seconds)
        {
            series[second]++;
        }

        return new StoredSeries(series);
    }

    /// <summary>One bar per second, or per few seconds when the run was long (at most 40 bars); the CSV keeps every second.</summary>
    public BarChart Chart()
    {
        var width = Math.Max(1, (int)Math.Ceiling(PerSecond.Count / (double)MaxBars));
        var chart = new BarChart()
            .Width(72)
            .Label(width == 1 ? "orders stored per second" : string.Create(CultureInfo.InvariantCulture, $"orders stored per {width} s"));
        for (var start = 0; start < PerSecond.Count; start += width)
        {
            var label = width == 1
                ? string.Create(CultureInfo.InvariantCulture, $"{start,4} s")
                : string.Create(CultureInfo.InvariantCulture, $"{start,4}-{Math.Min(start + width, PerSecond.Count) - 1} s");
            chart.AddItem(label, PerSecond.Skip(start).Take(width).Sum(), Color.Green);
        }

        return chart;
    }

    public string Csv()
    {
        var csv = new StringBuilder("second,stored,cumulative\n");
        var cumulative = 0;
        for (var second = 0; second < PerSecond.Count; second++)
        {
            cumulative += PerSecond[second];
            csv.Append(CultureInfo.InvariantCulture, $"{second},{PerSecond[second]},{cumulative}\n");
        }

        return csv.ToString();
    }

    /// <summary>Writes the series beside the results log, as <c>&lt;scheduled time&gt;-&lt;model&gt;.csv</c>.</summary>
    /// <returns>The file written.</returns>
    public async Task<string> WriteCsvBesideAsync(string resultsLog, DateTimeOffset scheduledAt, string model, CancellationToken cancellationToken)
    {
        var folder = Path.GetDirectoryName(Path.GetFullPath(resultsLog))!;
        Directory.CreateDirectory(folder);
        var path = Path.Combine(folder, ResultsRow.CsvFileName(scheduledAt, model));
        await File.WriteAllTextAsync(path, Csv(), cancellationToken);
        return path;
    }

    /// <summary>Reads a series <see cref="Csv"/> wrote (the stored column; cumulative follows from it).</summary>
    /// <exception cref="InvalidDataException">The file is not such a series.</exception>
    public static async Task<StoredSeries> ReadCsvAsync(string path, CancellationToken cancellationToken)
    {
        var lines = (await File.ReadAllLinesAsync(path, cancellationToken)).Where(l => l.Length > 0).ToList();
        if (lines.Count == 0 || lines[0] != "second,stored,cumulative")
        {
            throw new InvalidDataException($"{path} is not a per-second series (its first line must be 'second,stored,cumulative').");
        }

        var perSecond = new List<int>();
        foreach (var line in lines.Skip(1))
        {
            var cells = line.Split(',');
            if (cells.Length != 3
                || !int.TryParse(cells[0], NumberStyles.None, CultureInfo.InvariantCulture, out var second)
                || second != perSecond.Count
                || !int.TryParse(cells[1], NumberStyles.None, CultureInfo.InvariantCulture, out var stored))
            {
                throw new InvalidDataException($"{path}: '{line}' is not the row of second {perSecond.Count}.");
            }

            perSecond.Add(stored);
        }

        return new StoredSeries(perSecond);
    }
}
