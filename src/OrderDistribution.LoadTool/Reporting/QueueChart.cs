using ScottPlot;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The report's panels on where a burst waits and what it costs: the orders waiting on each queue per second (one
/// colour per model, one line pattern per queue), and each burst's cycle time against the trio's CPU-seconds.
/// </summary>
public static class QueueChart
{
    private static readonly LinePattern[] Patterns =
        [LinePattern.Solid, LinePattern.Dashed, LinePattern.Dotted, LinePattern.DenselyDashed];

    public static Plot Waiting(ComparisonReport report)
    {
        var plot = new Plot();
        plot.Title("Orders waiting on each queue (each model's last warm run that kept them, else cold)");
        plot.XLabel("seconds since the orders were scheduled");
        plot.YLabel("orders waiting");
        var palette = new ScottPlot.Palettes.Category10();
        var right = 1.0;
        var top = 1.0;
        for (var i = 0; i < report.Models.Count; i++)
        {
            if (report.Models[i].Queues is not { Samples.Count: > 0 } queues)
            {
                continue;
            }

            for (var q = 0; q < queues.Queues.Count; q++)
            {
                var queue = queues.Queues[q];
                var points = queues.Samples.Where(s => s.Waiting.ContainsKey(queue)).ToList();
                if (points.Count == 0)
                {
                    continue;
                }

                var line = plot.Add.ScatterLine(
                    points.Select(p => (double)p.Second).ToArray(),
                    points.Select(p => (double)p.Waiting[queue]).ToArray(),
                    palette.GetColor(i));
                line.LinePattern = Patterns[q % Patterns.Length];
                line.LineWidth = 2;
                line.LegendText = $"{report.Models[i].Label} {queue}";
                right = Math.Max(right, points[^1].Second);
                top = Math.Max(top, points.Max(p => p.Waiting[queue]));
            }
        }

        plot.Axes.SetLimits(0, right, 0, top * 1.15);
        plot.ShowLegend(Alignment.UpperRight);
        return plot;
    }

    public static Plot CostAgainstTime(ComparisonReport report)
    {
        var plot = new Plot();
        plot.Title("Each burst: cycle time against the trio's CPU (lower left: faster and cheaper)");
        plot.XLabel("cycle time, seconds");
        plot.YLabel("trio CPU-seconds (apps, sidecars, broker)");
        var palette = new ScottPlot.Palettes.Category10();
        var right = 1.0;
        var top = 1.0;
        for (var i = 0; i < report.Models.Count; i++)
        {
            var runs = report.Models[i].Costs.Where(c => c.Cost.TrioCpu is not null).ToList();
            if (runs.Count == 0)
            {
                continue;
            }

            var markers = plot.Add.Markers(
                runs.Select(r => r.Seconds).ToArray(), runs.Select(r => r.Cost.TrioCpu!.Value).ToArray(),
                MarkerShape.FilledCircle, 10, palette.GetColor(i));
            markers.LegendText = report.Models[i].Label;
            right = Math.Max(right, runs.Max(r => r.Seconds));
            top = Math.Max(top, runs.Max(r => r.Cost.TrioCpu!.Value));
        }

        plot.Axes.SetLimits(0, right * 1.15, 0, top * 1.15);
        plot.ShowLegend(Alignment.UpperLeft);
        return plot;
    }
}
