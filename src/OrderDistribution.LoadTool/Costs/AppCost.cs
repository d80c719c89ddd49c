using System.Globalization;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// One app's share of an Azure burst, from its replica metrics over the burst's window at one-minute grain: one
/// <c>UsageNanoCores</c> average per replica-minute (CPU-seconds used, and the replica-minutes billed at the allocated
/// size) and the <c>WorkingSetBytes</c> maxima (peak memory). docs/azure.md, "What a burst costs".
/// </summary>
public sealed record AppCost(string App, AllocatedSize Size, int ReplicaMinutes, CostShare Share)
{
    private const double NanoCoresPerCore = 1e9;

    private const double BytesPerMib = 1_048_576;

    public static AppCost Of(string app, AllocatedSize size, IReadOnlyCollection<double> usageNanoCores,
        IEnumerable<double> workingSetBytes, ContainerAppsPrices prices)
    {
        var seconds = usageNanoCores.Count * 60;
        return new AppCost(app, size, usageNanoCores.Count, new CostShare(
            usageNanoCores.Sum() * 60 / NanoCoresPerCore,
            (long)Math.Round(workingSetBytes.Aggregate(0.0, Math.Max) / BytesPerMib, MidpointRounding.ToEven),
            seconds * size.PerSecond(prices)));
    }

    /// <summary>The app's line in the burst script's report, in <paramref name="currency"/>.</summary>
    public string Line(string currency) => string.Create(CultureInfo.InvariantCulture,
        $"cost, {App}: {Share.CpuSeconds:F2} CPU-s used, peak {Share.PeakMib} MiB; {ReplicaMinutes} replica-minutes " +
        $"of {Size.Cpu} vCPU and {Size.Memory} allocated: {Share.Cost:F6} {currency}");
}
