using ScottPlot;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>The report's panel on what a burst costs: each burst's cycle time against the trio's CPU-seconds.</summary>
public static class CostChart
{
    public static Plot CostAgainstTime(ComparisonReport report)
    {
        var plot = ChartPanel.New("Each burst: cycle time against the trio's CPU (lower left: faster and cheaper)",
            "cycle time, seconds", "trio CPU-seconds (apps, sidecars, broker)");
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
                MarkerShape.FilledCircle, 10, ChartPanel.ModelColor(i));
            markers.LegendText = report.Models[i].Label;
            right = Math.Max(right, runs.Max(r => r.Seconds));
            top = Math.Max(top, runs.Max(r => r.Cost.TrioCpu!.Value));
        }

        return ChartPanel.Finish(plot, right * 1.15, top * 1.15, Alignment.UpperLeft);
    }
}
