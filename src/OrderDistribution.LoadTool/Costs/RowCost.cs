using System.Globalization;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// A burst's cost as its row in the results log carries it: CPU-seconds of the apps, their sidecars, the broker and
/// the store, the apps' and sidecars' peak memory summed, and the Container Apps price of the apps and sidecars. A
/// cell the burst could not see (no such process) is empty.
/// </summary>
public sealed record RowCost(double? AppsCpu, double? SidecarsCpu, double? BrokerCpu, double? StoreCpu,
    double? PeakMiB, double? Price)
{
    public const string HeaderCells = " apps CPU s | sidecars CPU s | broker CPU s | store CPU s | peak MiB | cost |";

    public const string RuleCells = " ---: | ---: | ---: | ---: | ---: | ---: |";

    public const int Cells = 6;

    /// <summary>The trio's own CPU: apps, sidecars and broker, where at least the apps were seen.</summary>
    public double? TrioCpu => AppsCpu is { } apps ? apps + (SidecarsCpu ?? 0) + (BrokerCpu ?? 0) : null;

    public static RowCost Of(BurstCost cost) => new(
        Seen(cost, ComponentRole.App), Seen(cost, ComponentRole.Sidecar), Seen(cost, ComponentRole.Broker),
        Seen(cost, ComponentRole.Store),
        cost.Components.Any(c => c.InContainerApps) ? cost.ContainerAppsPeakMiB : null, cost.Price);

    private static double? Seen(BurstCost cost, ComponentRole role) => cost.Has(role) ? cost.CpuSeconds(role) : null;

    public string Format() => string.Create(CultureInfo.InvariantCulture,
        $" {AppsCpu:0.00} | {SidecarsCpu:0.00} | {BrokerCpu:0.00} | {StoreCpu:0.00} | " +
        $"{PeakMiB:0} | {Price:0.000000} |");

    /// <summary>
    /// The cost from a row's cells from the first cost cell on; none when the row has no cost cell with a figure.
    /// </summary>
    public static RowCost? Parse(IReadOnlyList<string> cells)
    {
        double? At(int i) =>
            i < cells.Count && double.TryParse(cells[i], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture,
                out var v)
                ? v
                : null;
        var cost = new RowCost(At(0), At(1), At(2), At(3), At(4), At(5));
        return cost == new RowCost(null, null, null, null, null, null) ? null : cost;
    }
}
