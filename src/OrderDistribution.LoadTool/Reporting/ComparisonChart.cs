using ScottPlot;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The report's chart, drawn by ScottPlot: the cycle time of every burst per model (cold and warm apart) against
/// storage alone, and below it, when runs kept their series, the orders stored per second of each model overlaid.
/// </summary>
public static class ComparisonChart
{
    public const int Width = 1100;
    private const int PanelHeight = 460;

    public static int HeightFor(ComparisonReport report) =>
        PanelHeight * (1 + (report.HasSeries ? 1 : 0) + (report.HasCosts ? 1 : 0) + (report.HasQueues ? 1 : 0));

    public static void SavePng(ComparisonReport report, string path)
    {
        var multiplot = new Multiplot(CycleTimes(report));
        if (report.HasSeries)
        {
            multiplot.AddPlot(StoredPerSecond(report));
        }

        if (report.HasQueues)
        {
            multiplot.AddPlot(QueueChart.Waiting(report));
        }

        if (report.HasCosts)
        {
            multiplot.AddPlot(CostChart.CostAgainstTime(report));
        }

        multiplot.Layout = new ScottPlot.MultiplotLayouts.Rows();
        multiplot.SavePng(path, Width, HeightFor(report));
    }

    private static Plot CycleTimes(ComparisonReport report)
    {
        var plot = ChartPanel.New("Cycle time of every burst, against storage alone", null, "seconds");
        var top = 0.0;
        if (report.Storage is { WarmMean: { } storageMean } storage)
        {
            var band = plot.Add.VerticalSpan(storage.Warm.Min(), storage.Warm.Max(), Colors.Gray.WithAlpha(0.25));
            band.LegendText = "storage alone (range)";
            var line = plot.Add.HorizontalLine(storageMean, 2, Colors.Gray, LinePattern.Dashed);
            line.LegendText = "storage alone (mean)";
            top = storage.Warm.Max();
        }

        var positions = new List<double>();
        var labels = new List<string>();
        for (var i = 0; i < report.Models.Count; i++)
        {
            var model = report.Models[i];
            positions.Add(i);
            // Incomplete bursts have no cycle time to plot: the label says how many there were.
            labels.Add(model.Incomplete > 0
                ? $"{model.Label}\n({model.Incomplete} incomplete, not plotted)"
                : model.Label);
            if (model.Cold.Count > 0)
            {
                var cold = plot.Add.Markers(
                    model.Cold.Select(_ => i - 0.12).ToArray(), model.Cold.ToArray(), MarkerShape.FilledTriangleUp, 12,
                    Colors.OrangeRed);
                cold.LegendText = i == FirstWith(report, m => m.Cold.Count > 0) ? "cold (first burst after start)" : "";
            }

            if (model.Warm.Count > 0)
            {
                var warm = plot.Add.Markers(
                    model.Warm.Select(_ => i + 0.12).ToArray(), model.Warm.ToArray(), MarkerShape.FilledCircle, 10,
                    Colors.SteelBlue);
                warm.LegendText = i == FirstWith(report, m => m.Warm.Count > 0) ? "warm" : "";
            }

            top = Math.Max(top, model.Cold.Concat(model.Warm).DefaultIfEmpty(0).Max());
        }

        plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual([.. positions], [.. labels]);
        plot.Axes.SetLimits(-0.6, Math.Max(0, report.Models.Count - 1) + 0.6, 0, Math.Max(1, top * 1.15));
        plot.ShowLegend(Alignment.UpperLeft);
        return plot;
    }

    private static Plot StoredPerSecond(ComparisonReport report)
    {
        var plot = ChartPanel.New("Orders stored per second (mean over the runs that kept their series)",
            "seconds since the orders were scheduled", "orders stored");
        for (var i = 0; i < report.Models.Count; i++)
        {
            var model = report.Models[i];
            Line(plot, model.WarmSeries, ChartPanel.ModelColor(i), LinePattern.Solid, $"{model.Label} warm");
            Line(plot, model.ColdSeries, ChartPanel.ModelColor(i), LinePattern.Dashed, $"{model.Label} cold");
        }

        if (report.Storage is { } storage)
        {
            Line(plot, storage.WarmSeries, Colors.Gray, LinePattern.Dotted, "storage alone");
        }

        var series = report.Models.Append(report.Storage).OfType<ModelResults>()
            .SelectMany(m => new[] { m.WarmSeries, m.ColdSeries })
            .Where(s => s.Count > 0)
            .ToList();
        return ChartPanel.Finish(plot, series.Max(s => s.Count), series.Max(s => s.Max()) * 1.15, Alignment.UpperRight);
    }

    private static void Line(
        Plot plot, IReadOnlyList<double> perSecond, Color color, LinePattern pattern, string legend)
    {
        if (perSecond.Count == 0)
        {
            return;
        }

        var seconds = Enumerable.Range(0, perSecond.Count).Select(s => (double)s).ToArray();
        ChartPanel.Line(plot, seconds, [.. perSecond], color, pattern, legend);
    }

    private static int FirstWith(ComparisonReport report, Func<ModelResults, bool> has)
    {
        for (var i = 0; i < report.Models.Count; i++)
        {
            if (has(report.Models[i]))
            {
                return i;
            }
        }

        return -1;
    }
}
