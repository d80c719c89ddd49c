using System.Globalization;
using System.Text;
using Spectre.Console;

namespace OrderDistribution.LoadTool;

/// <summary>Orders stored per second since scheduling, by each order's own stored time: a stall or a tail shows at a glance.</summary>
public sealed class StoredSeries
{
    private const int MaxBars = 40;

    private StoredSeries(IReadOnlyList<int> perSecond) => PerSecond = perSecond;

    /// <summary>Index s: orders stored in [s, s+1) seconds after scheduling (before scheduling counts as second 0).</summary>
    public IReadOnlyList<int> PerSecond { get; }

    public static StoredSeries From(WatchReport report)
    {
        if (report.StoredTimes.Count == 0)
        {
            return new StoredSeries([]);
        }

        var seconds = report.StoredTimes.Select(t => Math.Max(0, (int)Math.Floor((t - report.ScheduledAt).TotalSeconds))).ToList();
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
        var path = Path.Combine(folder, string.Create(CultureInfo.InvariantCulture, $"{scheduledAt.UtcDateTime:yyyyMMdd-HHmmss}-{model}.csv"));
        await File.WriteAllTextAsync(path, Csv(), cancellationToken);
        return path;
    }
}
