using ScottPlot;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The report's panel on where a burst waits: the orders waiting on each queue per second (one colour per model, one
/// line pattern per queue).
/// </summary>
public static class QueueChart
{
    private static readonly LinePattern[] Patterns =
        [LinePattern.Solid, LinePattern.Dashed, LinePattern.Dotted, LinePattern.DenselyDashed];

    public static Plot Waiting(ComparisonReport report)
    {
        var plot = ChartPanel.New("Orders waiting on each queue (each model's last warm run that kept them, else cold)",
            "seconds since the orders were scheduled", "orders waiting");
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

                ChartPanel.Line(plot, [.. points.Select(p => (double)p.Second)],
                    [.. points.Select(p => (double)p.Waiting[queue])], ChartPanel.ModelColor(i),
                    Patterns[q % Patterns.Length], $"{report.Models[i].Label} {queue}");
                right = Math.Max(right, points[^1].Second);
                top = Math.Max(top, points.Max(p => p.Waiting[queue]));
            }
        }

        return ChartPanel.Finish(plot, right, top * 1.15, Alignment.UpperRight);
    }
}
