using System.Globalization;
using OrderDistribution.LoadTool.Costs;

namespace OrderDistribution.LoadTool.AzureBursts;

/// <summary>
/// What a burst put into the Log Analytics workspace, table by table (scripts/kql/telemetry-volume.kql): items and
/// billed bytes, which Log Analytics bills per GB (10^9 bytes) ingested. In single and bindings every order is a
/// request in each app, so this can cost a burst more than the replicas' CPU (docs/azure.md, "What a burst costs").
/// </summary>
public sealed record TelemetryVolume(IReadOnlyList<TelemetryVolume.Table> Tables)
{
    public sealed record Table(string Name, long Items, long BilledBytes);

    public long Items => Tables.Sum(t => t.Items);

    public long BilledBytes => Tables.Sum(t => t.BilledBytes);

    /// <summary>
    /// The query's rows as az prints them (-o tsv): table, items, billed bytes; null with a row that is not that.
    /// </summary>
    public static TelemetryVolume? Parse(string text)
    {
        var tables = new List<Table>();
        foreach (var line in text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            if (line.Split('\t') is not [var name, var items, var bytes]
                || !long.TryParse(items, NumberStyles.None, CultureInfo.InvariantCulture, out var count)
                || !double.TryParse(bytes, NumberStyles.Float, CultureInfo.InvariantCulture, out var billed)
                || billed < 0)
            {
                return null;
            }

            tables.Add(new Table(name, count, (long)Math.Round(billed)));
        }

        return new TelemetryVolume(tables.OrderByDescending(t => t.BilledBytes).ToList());
    }

    /// <summary>MB billed and their cost, rounded as the line prints them.</summary>
    public TelemetryCost Cost(LogAnalyticsPrice price) =>
        new(Math.Round(BilledBytes / 1e6, 2, MidpointRounding.AwayFromZero),
            Math.Round(BilledBytes / 1e9 * price.PerGb, 6, MidpointRounding.AwayFromZero));

    /// <summary>
    /// One line: items and MB in all and per table, per order, and the cost at <paramref name="price"/>.
    /// </summary>
    public string Line(int orders, LogAnalyticsPrice price)
    {
        var perTable = Tables.Count == 0
            ? "nothing ingested in the window"
            : string.Join("; ", Tables.Select(t => string.Create(CultureInfo.InvariantCulture,
                $"{t.Name} {t.Items} items, {t.BilledBytes / 1e6:0.00} MB")));
        var perOrder = orders > 0 ? (double)Items / orders : 0;
        var cost = Cost(price);
        return string.Create(CultureInfo.InvariantCulture,
            $"telemetry, Log Analytics: {Items} items, {cost.BilledMb:0.00} MB billed ({perTable}); " +
            $"{perOrder:0.00} items per order; {cost.Cost:F6} {price.Currency} at " +
            $"LOG_ANALYTICS_PRICE_GB={price.PerGb.ToString("0.####", CultureInfo.InvariantCulture)} {price.Currency}");
    }
}
