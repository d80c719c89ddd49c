using System.Globalization;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// One app's share of an Azure burst, from its replica metrics over the burst's window at one-minute grain: one
/// <c>UsageNanoCores</c> average per replica-minute (CPU-seconds used, and the replica-minutes billed at the allocated
/// size) and the <c>WorkingSetBytes</c> maxima (peak memory). Rounded as its line prints it, so that the burst's total
/// adds what the lines say. docs/azure.md, "What a burst costs".
/// </summary>
public sealed record AppCost(
    string App, AllocatedSize Size, int ReplicaMinutes, double CpuSeconds, long PeakMib, double Cost)
{
    private const double NanoCoresPerCore = 1e9;

    private const double BytesPerMib = 1_048_576;

    public static AppCost Of(string app, AllocatedSize size, IReadOnlyCollection<double> usageNanoCores,
        IEnumerable<double> workingSetBytes, ContainerAppsPrices prices) =>
        new(app, size, usageNanoCores.Count,
            Math.Round(usageNanoCores.Sum() * 60 / NanoCoresPerCore, 2, MidpointRounding.AwayFromZero),
            (long)Math.Round(workingSetBytes.Aggregate(0.0, Math.Max) / BytesPerMib, MidpointRounding.ToEven),
            Math.Round(usageNanoCores.Count * 60 * size.PerSecond(prices), 6, MidpointRounding.AwayFromZero));

    /// <summary>The app's line in the burst script's report, in <paramref name="currency"/>.</summary>
    public string Line(string currency) => string.Create(CultureInfo.InvariantCulture,
        $"cost, {App}: {CpuSeconds:F2} CPU-s used, peak {PeakMib} MiB; {ReplicaMinutes} replica-minutes " +
        $"of {Size.Cpu} vCPU and {Size.Memory} allocated: {Cost:F6} {currency}");
}
