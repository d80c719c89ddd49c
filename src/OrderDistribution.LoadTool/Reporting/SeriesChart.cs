using System.Globalization;
using Spectre.Console;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The per-second series as a bar chart for the console, 72 columns wide, so that it fits an 80-column terminal.
/// </summary>
public static class SeriesChart
{
    private const int MaxBars = 40;

    /// <summary>
    /// One bar per second, or per few seconds when the run was long (at most 40 bars); the CSV keeps every second.
    /// </summary>
    /// <param name="what">What a bar counts: "orders stored" for a burst, "uploads" for storage alone.</param>
    public static BarChart Of(StoredSeries series, string what)
    {
        var width = Math.Max(1, (int)Math.Ceiling(series.PerSecond.Count / (double)MaxBars));
        var chart = new BarChart()
            .Width(72)
            .Label(width == 1
                ? $"{what} per second"
                : string.Create(CultureInfo.InvariantCulture, $"{what} per {width} s"));
        for (var start = 0; start < series.PerSecond.Count; start += width)
        {
            var label = width == 1
                ? string.Create(CultureInfo.InvariantCulture, $"{start,4} s")
                : string.Create(CultureInfo.InvariantCulture,
                    $"{start,4}-{Math.Min(start + width, series.PerSecond.Count) - 1} s");
            chart.AddItem(label, series.PerSecond.Skip(start).Take(width).Sum(), Color.Green);
        }

        return chart;
    }
}
