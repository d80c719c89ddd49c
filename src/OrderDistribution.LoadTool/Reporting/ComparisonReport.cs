using System.Globalization;
using System.Text;
using OrderDistribution.LoadTool.Ceiling;

namespace OrderDistribution.LoadTool.Reporting;

/// <summary>
/// The comparison of the models in a results file: per model the runs, the cold runs apart, the warm ones' mean,
/// median, min and max cycle time, their rate, and each one's ratio to storage alone (<c>ceiling</c>) from the same
/// file.
/// </summary>
public sealed class ComparisonReport
{
    /// <summary>
    /// Known models first, in this order (a variant such as "pubsub-single (appMaxConcurrency 64)" with its model);
    /// others after them by name.
    /// </summary>
    private static readonly string[] KnownModels = ["pubsub-bulk", "pubsub-single", "bindings"];

    private ComparisonReport(IReadOnlyList<ModelResults> models, ModelResults? storage, int rows, int leftOut)
    {
        Models = models;
        Storage = storage;
        Rows = rows;
        LeftOut = leftOut;
    }

    public IReadOnlyList<ModelResults> Models { get; }

    /// <summary>Storage alone, from the <c>storage-alone</c> records, if the file has any.</summary>
    public ModelResults? Storage { get; }

    /// <summary>The runs compared: those whose bursts overlapped no other.</summary>
    public int Rows { get; }

    /// <summary>
    /// Runs left out: their bursts overlapped another's in time, so none of them measured the store alone.
    /// </summary>
    public int LeftOut { get; }

    public bool HasSeries => Models.Append(Storage).Any(m => m is { RunsWithSeries: > 0 });

    /// <summary>Whether any model's run carried a cost: the chart then sets cycle time against it.</summary>
    public bool HasCosts => Models.Any(m => m.Costs.Count > 0);

    /// <summary>Whether any model kept the orders waiting on its queues.</summary>
    public bool HasQueues => Models.Any(m => m.Queues is not null);

    /// <param name="results">The records; those whose bursts overlapped another's are left out.</param>
    public static ComparisonReport From(IReadOnlyList<BurstResult> results)
    {
        var overlapped = BurstResult.Overlapped(results);
        var kept = results.Where((_, i) => !overlapped.Contains(i)).ToList();
        var summaries = kept
            .GroupBy(r => r.Label, StringComparer.Ordinal)
            .Select(group => Summarize(group.Key, [.. group]))
            .ToList();
        var models = summaries
            .Where(m => m.Label != StorageCeiling.Label)
            .OrderBy(m => Array.FindIndex(KnownModels, known =>
                    m.Label == known || m.Label.StartsWith(known + " ", StringComparison.Ordinal)) is >= 0 and var known
                ? known
                : KnownModels.Length)
            .ThenBy(m => m.Label, StringComparer.Ordinal)
            .ToList();
        var storage = summaries.SingleOrDefault(m => m.Label == StorageCeiling.Label);
        return new ComparisonReport(models, storage, kept.Count, overlapped.Count);
    }

    /// <summary>A model's mean cycle time over storage alone's: 1.0 would be as fast as storage allows.</summary>
    public double? RatioToStorage(double? seconds) => seconds / Storage?.WarmMean;

    /// <param name="log">The results file, as named in the report.</param>
    /// <param name="chart">The chart's file name, beside the report.</param>
    public string Markdown(string log, string chart)
    {
        var text = new StringBuilder();
        var leftOut = LeftOut > 0
            ? string.Create(CultureInfo.InvariantCulture, $" ({LeftOut} more left out: ") +
              "their bursts overlapped another's on the store, so none of them measured it alone)"
            : "";
        text.Append("# Messaging models compared\n\n");
        text.Append(CultureInfo.InvariantCulture, $"From `{log}`: {Rows} runs{leftOut}. ");
        text.Append("Cycle time: from scheduling until the last order was stored, in seconds.\n\n");
        text.Append("| model | runs | incomplete | cold s | warm runs | warm mean s | warm median s | warm min s | ");
        text.Append("warm max s | warm orders/s | warm ÷ storage alone | cold ÷ storage alone |");
        text.Append(" warm trio CPU-s | warm store CPU-s | warm peak MiB | warm cost |\n");
        text.Append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        text.Append(" ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        foreach (var model in Models)
        {
            text.Append(Row(model, Ratio(RatioToStorage(model.WarmMean)), Ratio(RatioToStorage(model.ColdMean))));
        }

        if (Storage is { } storage)
        {
            text.Append(Row(storage, Ratio(1), "—"));
        }

        text.Append("\n- cold: the first burst after the trio started; warm: the bursts after it. Incomplete runs ");
        text.Append("(orders still missing at the timeout) are left out of the times.\n");
        if (Models.Any(m => m.Label.StartsWith("bindings", StringComparison.Ordinal)))
        {
            text.Append("- bindings locally: `bindings.rabbitmq` publishes without publisher confirms on every Dapr ");
            text.Append("runtime, so a RabbitMQ crash may lose the orders in flight; Redis and Service Bus keep what ");
            text.Append("they acknowledged (docs/brokers.md).\n");
        }

        if (Models.Sum(m => m.Unmarked) is > 0 and var unmarked)
        {
            text.Append(CultureInfo.InvariantCulture, $"- {unmarked} runs carry no cold or warm mark ");
            text.Append("(`run` without `--start`): counted as warm.\n");
        }

        text.Append(Storage is { } alone
            ? "- storage alone: the `storage-alone` runs of this file (`order-load ceiling`; " +
              string.Create(
                  CultureInfo.InvariantCulture, $"complete runs: {alone.Warm.Count}), mean {alone.WarmMean:0.00} s;") +
              " the ratios divide each model's mean by it.\n"
            : "- storage alone: no `storage-alone` run in this file (run `order-load ceiling`), so no ratios.\n");
        var runsWithSeries = Models.Sum(m => m.RunsWithSeries) + (Storage?.RunsWithSeries ?? 0);
        text.Append(HasSeries
            ? string.Create(CultureInfo.InvariantCulture, $"- orders stored per second: {runsWithSeries} of {Rows} ") +
              "runs kept their series; the chart's lower part overlays each model's mean series, " +
              "warm solid, cold dashed.\n"
            : "- orders stored per second: no run in this file kept its series, so the chart shows the " +
              "cycle times only.\n");
        text.Append(HasCosts
            ? "- cost: over each burst's window, the CPU-seconds of the trio (apps, sidecars, broker) and of the " +
              "store, read from /proc for the processes scripts/run-local.sh started; peak MiB: the apps' and " +
              "sidecars' peaks summed; cost: the apps and sidecars at Container Apps consumption prices " +
              "(container-apps-prices.env), their CPU-seconds as vCPU-seconds and their peak memory over the window " +
              "as GiB-seconds. The chart sets each burst's cycle time against its trio CPU: lower left is cheaper " +
              "and faster.\n"
            : "- cost: no run in this file saw the local run's processes (scripts/run-local.sh records them in " +
              ".dapr/pids), so no CPU or cost; a burst in Azure keeps its replicas' cost in its record " +
              "(scripts/azure-burst.sh).\n");
        if (HasQueues)
        {
            text.Append("- orders waiting: per queue and second of each model's last warm run that kept them, else ");
            text.Append("its last cold one (Redis: each ");
            text.Append("stream's consumer group's lag plus pending; RabbitMQ: each queue's messages, ready and ");
            text.Append("unacknowledged; Service Bus: each queue's active messages). A queue that fills late or ");
            text.Append("drains last is where the burst waits:\n");
            foreach (var model in Models.Where(m => m.Queues is not null))
            {
                text.Append(CultureInfo.InvariantCulture, $"  - {model.Label}: {model.Queues!.Summary()}.\n");
            }
        }

        text.Append(CultureInfo.InvariantCulture,
            $"\n![Cycle time of every burst per model, against storage alone]({chart})\n");
        return text.ToString();
    }

    private static ModelResults Summarize(string label, IReadOnlyList<BurstResult> results)
    {
        var complete = results.Where(r => r.Complete).ToList();
        var cold = complete.Where(r => r.Start == BurstStart.Cold).ToList();
        var warm = complete.Where(r => r.Start != BurstStart.Cold).ToList();
        return new ModelResults(
            label, results.Count, results.Count - complete.Count,
            [.. cold.Select(r => r.CycleSeconds!.Value)], [.. warm.Select(r => r.CycleSeconds!.Value)],
            warm.Count(r => r.Start is null), warm.Sum(r => (long)r.Count),
            MeanSeries(cold), MeanSeries(warm), complete.Count(r => r.StoredPerSecond.Count > 0))
        {
            Costs =
            [
                .. complete.Where(r => r.Cost is not null)
                    .Select(r => (r.CycleSeconds!.Value, r.Cost!, r.Start == BurstStart.Cold)),
            ],
            // The last warm run's, as the times compare warm runs; a cold run's only when no warm one kept them.
            Queues = (warm.LastOrDefault(r => r.Queues is not null) ?? cold.LastOrDefault(r => r.Queues is not null))
                ?.Queues,
        };
    }

    /// <summary>Second by second, the mean over the runs that kept a series (a run that had ended counts 0).</summary>
    private static double[] MeanSeries(IReadOnlyList<BurstResult> runs)
    {
        var kept = runs.Select(r => r.StoredPerSecond).Where(s => s.Count > 0).ToList();
        if (kept.Count == 0)
        {
            return [];
        }

        var mean = new double[kept.Max(s => s.Count)];
        foreach (var perSecond in kept)
        {
            for (var second = 0; second < perSecond.Count; second++)
            {
                mean[second] += perSecond[second] / (double)kept.Count;
            }
        }

        return mean;
    }

    private static string Row(ModelResults model, string warmRatio, string coldRatio)
    {
        var invariant = CultureInfo.InvariantCulture;
        string[] cells =
        [
            model.Label, model.Runs.ToString(invariant), model.Incomplete.ToString(invariant), ColdCell(model.Cold),
            model.Warm.Count.ToString(invariant), Mean(model.WarmMean), Mean(model.WarmMedian),
            Measured(model.Warm.Count > 0 ? model.Warm.Min() : null),
            Measured(model.Warm.Count > 0 ? model.Warm.Max() : null),
            model.WarmOrdersPerSecond?.ToString("0", invariant) ?? "—", warmRatio, coldRatio,
            Cpu(model.WarmTrioCpu), Cpu(model.WarmStoreCpu), model.WarmPeakMiB?.ToString("0", invariant) ?? "—",
            model.WarmPrice?.ToString("0.000000", invariant) ?? "—",
        ];
        return $"| {string.Join(" | ", cells)} |\n";
    }

    private static string Cpu(double? seconds) => seconds?.ToString("0.00", CultureInfo.InvariantCulture) ?? "—";

    private static string ColdCell(IReadOnlyList<double> cold) => cold.Count switch
    {
        0 => "—",
        1 => Measured(cold[0]),
        _ => string.Create(CultureInfo.InvariantCulture,
            $"{Mean(cold.Average())} ({Measured(cold.Min())}–{Measured(cold.Max())}, {cold.Count} runs)"),
    };

    /// <summary>A time as the log holds it (tenths).</summary>
    private static string Measured(double? seconds) => seconds?.ToString("0.0", CultureInfo.InvariantCulture) ?? "—";

    /// <summary>
    /// A time computed from several (hundredths, so that the mean of 26.8 and 26.7 is not rounded away).
    /// </summary>
    private static string Mean(double? seconds) => seconds?.ToString("0.00", CultureInfo.InvariantCulture) ?? "—";

    private static string Ratio(double? ratio) => ratio?.ToString("0.00", CultureInfo.InvariantCulture) ?? "—";
}
