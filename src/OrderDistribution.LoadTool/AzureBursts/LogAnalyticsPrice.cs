using OrderDistribution.LoadTool.Costs;

namespace OrderDistribution.LoadTool.AzureBursts;

/// <summary>
/// What Log Analytics bills per GB ingested: <c>LOG_ANALYTICS_PRICE_GB</c> from the environment, else from the prices
/// file (<see cref="ContainerAppsPrices.FileName"/>, which names its source and date), in the file's currency.
/// </summary>
public sealed record LogAnalyticsPrice(double PerGb, string Currency)
{
    /// <summary>The price, or null when neither the environment nor the file gives it.</summary>
    public static LogAnalyticsPrice? Load(Func<string, string?> environment, string? file)
    {
        var setting = ContainerAppsPrices.Settings(environment, file);
        return ContainerAppsPrices.Number(setting("LOG_ANALYTICS_PRICE_GB")) is { } perGb
            ? new LogAnalyticsPrice(perGb, setting("ACA_PRICE_CURRENCY") ?? "USD")
            : null;
    }
}
