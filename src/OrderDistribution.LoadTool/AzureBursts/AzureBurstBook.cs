using System.Globalization;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Reporting;

namespace OrderDistribution.LoadTool.AzureBursts;

/// <summary>
/// What scripts/azure-burst.sh asks the tool about a burst (<c>azure-burst</c>): what it reads from the schedule
/// record and the burst's result, in one line, and the keeping of what it read from Azure in that result, the history
/// of the environment's bursts (the same results file <c>report</c> reads).
/// </summary>
public static class AzureBurstBook
{
    private const string None = "-";

    /// <summary>
    /// One line, fields apart by spaces, "-" for what is not known: seconds from <paramref name="now"/> to the
    /// scheduled instant by this machine's clock, the instant (storage's time), the skew in whole seconds, the query
    /// window's start and end and the burst's end in storage's time, and the burst's cycle seconds, count and missing
    /// orders from its result.
    /// </summary>
    public static async Task<string> ReadAsync(string state, string? results, DateTimeOffset? started,
        DateTimeOffset? ended, DateTimeOffset now, CancellationToken ct)
    {
        var invariant = CultureInfo.InvariantCulture;
        var instant = await ScheduledInstant.ReadAsync(state, ct);
        var skew = instant?.Skew ?? TimeSpan.Zero;
        var window = started is { } from && ended is { } to ? QueryWindow.Of(from, to, skew) : (QueryWindow?)null;
        var result = instant is not null && results is not null && File.Exists(results)
            ? Find(await ResultsFile.ReadAsync(results, ct), instant).Result
            : null;
        return string.Join(' ',
            instant?.SecondsUntil(now).ToString(invariant) ?? None, instant?.Text ?? None,
            (instant?.SkewSeconds ?? 0).ToString(invariant),
            window is { } w ? QueryWindow.Text(w.Start) : None, window is { } v ? QueryWindow.Text(v.End) : None,
            ended is { } end ? QueryWindow.Text(end + skew) : None,
            result?.CycleSeconds?.ToString("0.0", invariant) ?? None, result?.Count.ToString(invariant) ?? None,
            result?.Missing.ToString(invariant) ?? None);
    }

    /// <summary>
    /// Prices each app's metrics and the telemetry's volume, keeps them with the replicas and the compilation in the
    /// burst's result, and says how many earlier bursts compare with it.
    /// </summary>
    /// <returns>
    /// The lines to print, and <see cref="ExitCodes.Incomplete"/> when the burst has no result to keep them.
    /// </returns>
    public static async Task<(int Exit, IReadOnlyList<string> Lines)> RecordAsync(
        AzureBurstReadings readings, CancellationToken ct)
    {
        var lines = new List<string>();
        var apps = Apps(readings, lines);
        var telemetry = Telemetry(readings, lines);
        var instant = await ScheduledInstant.ReadAsync(readings.State, ct);
        var results = File.Exists(readings.Results) ? await ResultsFile.ReadAsync(readings.Results, ct) : [];
        var (index, result) = instant is null ? (-1, null) : Find(results, instant);
        if (result is null)
        {
            lines.Add($"history: no result of this burst in {readings.Results}, so what Azure said of it is not kept");
            return (ExitCodes.Incomplete, lines);
        }

        var facts = new AzureFacts(
            readings.ReplicasAtInstant, readings.ReplicasAtEnd, readings.TieredCompilation, apps, telemetry);
        lines.Add(Comparable(results.Take(index), result, facts, readings.Results));
        await ResultsFile.RewriteAsync(
            readings.Results, results.Select((r, i) => i == index ? r with { Azure = facts } : r), ct);
        return (ExitCodes.Done, lines);
    }

    /// <summary>The burst's result: the last one scheduled at the record's instant.</summary>
    private static (int Index, BurstResult? Result) Find(IReadOnlyList<BurstResult> results, ScheduledInstant instant)
    {
        for (var i = results.Count - 1; i >= 0; i--)
        {
            if (results[i].ScheduledAt == instant.At)
            {
                return (i, results[i]);
            }
        }

        return (-1, null);
    }

    private static string Comparable(
        IEnumerable<BurstResult> earlier, BurstResult result, AzureFacts facts, string history)
    {
        if (!facts.ReplicasKnown)
        {
            return "comparable earlier bursts: unknown (the replicas at the instant were not read); compare this " +
                   "burst with none";
        }

        var alike = earlier.Count(r => r.Label == result.Label && r.Start == result.Start
                                       && r.Azure is { } azure && facts.StartedAlike(azure));
        var start = result.Start?.ToString().ToLowerInvariant() ?? "unmarked";
        return $"comparable earlier bursts (model {result.Label}, start {start}, same replicas at the instant, " +
               $"tiered compilation {facts.TieredCompilation}): {alike}, in {history}";
    }

    /// <summary>Each app's cost and its line, and the burst's; an app that cannot be priced is a line alone.</summary>
    private static List<AppCost> Apps(AzureBurstReadings readings, List<string> lines)
    {
        if (ContainerAppsPrices.Load(Environment.GetEnvironmentVariable, readings.PricesFile) is not { } prices)
        {
            lines.Add("cost: no Container Apps prices: set ACA_PRICE_VCPU_SECOND and ACA_PRICE_GIB_SECOND in the " +
                      $"environment or in {readings.PricesFile}");
            return [];
        }

        var apps = new List<AppCost>();
        foreach (var app in readings.Apps)
        {
            if (AllocatedSize.Parse(app.Cpu, app.Memory) is not { } size)
            {
                lines.Add($"cost, {app.App}: its size ({app.Cpu} vCPU, {app.Memory}) is not a number of vCPUs and " +
                          "a memory size in Gi (e.g. 0.5 and 1Gi)");
            }
            else
            {
                var (usage, usageSkipped) = Numbers(app.UsageNanoCores);
                var (workingSet, workingSetSkipped) = Numbers(app.WorkingSetBytes);
                var cost = AppCost.Of(app.App, size, usage, workingSet, prices);
                apps.Add(cost);
                lines.Add(cost.Line(prices.Currency));
                var skipped = usageSkipped.Select(v => $"--usage-nanocores '{v}'")
                    .Concat(workingSetSkipped.Select(v => $"--working-set-bytes '{v}'")).ToList();
                if (skipped.Count > 0)
                {
                    lines.Add($"cost, {app.App}: skipped what az printed that is no metric value (a number, at least " +
                              $"0): {string.Join(", ", skipped)}");
                }
            }
        }

        lines.Add(string.Create(CultureInfo.InvariantCulture,
            $"burst cost at Container Apps consumption prices (ACA_PRICE_VCPU_SECOND={Price(prices.VcpuSecond)}, " +
            $"ACA_PRICE_GIB_SECOND={Price(prices.GibSecond)} {prices.Currency}): {apps.Sum(a => a.Cost):F6} " +
            $"{prices.Currency} for {readings.Count} orders; {apps.Sum(a => a.CpuSeconds):F2} CPU-s used by the apps"));
        return apps;
    }

    private static TelemetryCost? Telemetry(AzureBurstReadings readings, List<string> lines)
    {
        if (readings.TelemetryVolume is not { } rows)
        {
            return null;
        }

        if (LogAnalyticsPrice.Load(Environment.GetEnvironmentVariable, readings.PricesFile) is not { } price)
        {
            lines.Add("telemetry, Log Analytics: no Log Analytics price: set LOG_ANALYTICS_PRICE_GB in the " +
                      $"environment or in {readings.PricesFile}");
            return null;
        }

        if (TelemetryVolume.Parse(rows) is not { } volume)
        {
            lines.Add("telemetry, Log Analytics: the query's rows are not a table's name, its items and its billed " +
                      "bytes, tab-separated, one table a line");
            return null;
        }

        lines.Add(volume.Line(readings.Count, price));
        return volume.Cost(price);
    }

    /// <summary>
    /// Metric values as az prints them (-o tsv), apart by white space: the numbers, and the cells that are none (az
    /// prints None for a minute without a value).
    /// </summary>
    private static (double[] Values, List<string> Skipped) Numbers(string text)
    {
        var (values, skipped) = (new List<double>(), new List<string>());
        foreach (var cell in text.Split((char[])[' ', '\t', '\n', '\r'], StringSplitOptions.RemoveEmptyEntries))
        {
            if (double.TryParse(cell, NumberStyles.Float, CultureInfo.InvariantCulture, out var value)
                && double.IsFinite(value) && value >= 0)
            {
                values.Add(value);
            }
            else
            {
                skipped.Add(cell);
            }
        }

        return ([.. values], skipped);
    }

    private static string Price(double perSecond) =>
        perSecond.ToString("0.###############", CultureInfo.InvariantCulture);
}
