using System.Globalization;
using System.Text;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// What a burst cost each component over its window, and at Container Apps prices what the parts that run there (the
/// apps and their sidecars) would be billed: their CPU-seconds as vCPU-seconds and their peak memory over the window as
/// GiB-seconds. The broker and the store are Service Bus and Storage in Azure, billed otherwise: shown, not priced.
/// </summary>
public sealed record BurstCost(IReadOnlyList<ComponentCost> Components, double WindowSeconds,
    ContainerAppsPrices? Prices)
{
    public const string CsvHeader = "component,role,cpu_s,peak_mib";

    public double CpuSeconds(ComponentRole role) => Components.Where(c => c.Role == role).Sum(c => c.CpuSeconds);

    public bool Has(ComponentRole role) => Components.Any(c => c.Role == role);

    /// <summary>A role's CPU-seconds; none when no component of it was seen.</summary>
    public double? CpuSecondsSeen(ComponentRole role) => Has(role) ? CpuSeconds(role) : null;

    /// <summary>The trio's own CPU, where at least the apps were seen.</summary>
    public double? TrioCpu => Has(ComponentRole.App) ? TrioCpuSeconds : null;

    /// <summary>The apps' and sidecars' peak memory summed, where one of them was seen.</summary>
    public double? PeakMiBSeen => Components.Any(c => c.InContainerApps) ? ContainerAppsPeakMiB : null;

    /// <summary>
    /// CPU-seconds of the apps, their sidecars and the broker: what the trio adds to the store's work.
    /// </summary>
    public double TrioCpuSeconds => Components.Where(c => c.Role != ComponentRole.Store).Sum(c => c.CpuSeconds);

    /// <summary>The apps' and sidecars' peak memory, summed (each one's own peak).</summary>
    public double ContainerAppsPeakMiB => Components.Where(c => c.InContainerApps).Sum(c => c.PeakMiB);

    public double VcpuSeconds => Components.Where(c => c.InContainerApps).Sum(c => c.CpuSeconds);

    public double GibSeconds => ContainerAppsPeakMiB / 1024 * WindowSeconds;

    /// <summary>In the prices' currency; none without prices or without an app or sidecar seen.</summary>
    public double? Price => Prices is { } prices && Components.Any(c => c.InContainerApps)
        ? (VcpuSeconds * prices.VcpuSecond) + (GibSeconds * prices.GibSecond)
        : null;

    /// <summary>The line a burst ends with, after its result line.</summary>
    public string Line()
    {
        var parts = Components.Select(c =>
            string.Create(CultureInfo.InvariantCulture, $"{c.Name} {c.CpuSeconds:0.00} CPU-s {c.PeakMiB:0} MiB"));
        var price = Price is { } cost
            ? string.Create(CultureInfo.InvariantCulture,
                $"; at Container Apps prices {cost:0.000000} {Prices!.Currency} ({VcpuSeconds:0.00} vCPU-s, " +
                $"{GibSeconds:0.00} GiB-s)")
            : "";
        return string.Create(CultureInfo.InvariantCulture,
            $"cost over {WindowSeconds:0.0} s: {string.Join(", ", parts)}; " +
            $"the trio {TrioCpuSeconds:0.00} CPU-s{price}");
    }

    public string Csv()
    {
        var csv = new StringBuilder(CsvHeader).Append('\n');
        foreach (var c in Components)
        {
            csv.Append(CultureInfo.InvariantCulture,
                $"{c.Name},{c.Role.ToString().ToLowerInvariant()},{c.CpuSeconds:0.000},{c.PeakMiB:0.0}\n");
        }

        return csv.ToString();
    }
}
