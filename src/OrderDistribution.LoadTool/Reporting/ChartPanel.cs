using ScottPlot;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// What every panel of the report's chart shares: its titles, one colour per model, its lines, its limits and legend.
/// </summary>
public static class ChartPanel
{
    private static readonly ScottPlot.Palettes.Category10 Palette = new();

    public static Plot New(string title, string? x, string y)
    {
        var plot = new Plot();
        plot.Title(title);
        if (x is not null)
        {
            plot.XLabel(x);
        }

        plot.YLabel(y);
        return plot;
    }

    /// <summary>The colour of the model at <paramref name="index"/>, the same in every panel.</summary>
    public static Color ModelColor(int index) => Palette.GetColor(index);

    public static void Line(Plot plot, double[] xs, double[] ys, Color color, LinePattern pattern, string legend)
    {
        var line = plot.Add.ScatterLine(xs, ys, color);
        line.LinePattern = pattern;
        line.LineWidth = 2;
        line.LegendText = legend;
    }

    /// <summary>Shows from 0 to <paramref name="right"/> and <paramref name="top"/>, with the legend.</summary>
    public static Plot Finish(Plot plot, double right, double top, Alignment legend)
    {
        plot.Axes.SetLimits(0, right, 0, top);
        plot.ShowLegend(legend);
        return plot;
    }
}
