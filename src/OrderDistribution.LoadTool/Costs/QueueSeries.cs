using System.Globalization;
using System.Text;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>One second's reading: the orders waiting on each queue the broker answered for.</summary>
public sealed record QueueSample(int Second, IReadOnlyDictionary<string, long> Waiting);

/// <summary>
/// The orders waiting per queue, second by second from the burst's scheduled instant; as CSV
/// (<c>second,&lt;queue&gt;,...</c>; an empty cell where the broker did not say).
/// </summary>
public sealed record QueueSeries(IReadOnlyList<string> Queues, IReadOnlyList<QueueSample> Samples)
{
    /// <summary>
    /// How many readings failed and why the first did, in words for one line; null when every one was read.
    /// </summary>
    public string? Fault { get; init; }

    /// <summary>
    /// Where the burst waited, in words for one line: each queue's most orders waiting and when, and the second from
    /// which it held none (or what it still held at its last reading).
    /// </summary>
    public string Summary() => string.Join("; ", Queues.Select(Describe));

    private string Describe(string queue)
    {
        var read = Samples.Where(s => s.Waiting.ContainsKey(queue))
            .Select(s => (s.Second, Waiting: s.Waiting[queue]))
            .ToList();
        if (read.Count == 0)
        {
            return $"{queue} not read";
        }

        var peak = read.MaxBy(r => r.Waiting);
        var lastBusy = read.FindLastIndex(r => r.Waiting > 0);
        return lastBusy < 0
            ? $"{queue} held none"
            : $"{queue} at most {peak.Waiting} (second {peak.Second}), " + (lastBusy == read.Count - 1
                ? $"still {read[^1].Waiting} at second {read[^1].Second}"
                : $"none from second {read[lastBusy + 1].Second}");
    }

    public string Csv()
    {
        var csv = new StringBuilder("second,").AppendJoin(',', Queues).Append('\n');
        foreach (var sample in Samples)
        {
            csv.Append(sample.Second.ToString(CultureInfo.InvariantCulture));
            foreach (var queue in Queues)
            {
                csv.Append(',').Append(sample.Waiting.TryGetValue(queue, out var n)
                    ? n.ToString(CultureInfo.InvariantCulture)
                    : "");
            }

            csv.Append('\n');
        }

        return csv.ToString();
    }
}
