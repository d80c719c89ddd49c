using System.CommandLine;
using System.Globalization;
using OrderDistribution.LoadTool.Costs;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>burst-record app-cost</c>, <c>cost-total</c> and <c>telemetry-cost</c>: what a burst cost in Azure, from the
/// metrics and the telemetry volume the script read with az, priced as the local report prices (the environment over
/// container-apps-prices.env).
/// </summary>
internal static partial class BurstRecordCommand
{
    private static readonly char[] MetricSeparators = [' ', '\t', '\n', '\r'];

    private static readonly Option<string> Costs = new Option<string>("--costs")
    {
        Description = "The burst's costs so far, one app a line (CPU-seconds, peak MiB and cost, tab-separated).",
        Required = true,
    }.Text("a file's path");

    private static readonly Option<string> Prices = new Option<string>("--prices")
    {
        Description = "The prices the environment does not set (ACA_PRICE_VCPU_SECOND, ACA_PRICE_GIB_SECOND, " +
                      "LOG_ANALYTICS_PRICE_GB; default: the nearest " + ContainerAppsPrices.FileName +
                      " above this folder).",
        DefaultValueFactory = _ => ContainerAppsPrices.FindFile(Directory.GetCurrentDirectory())
                                   ?? ContainerAppsPrices.FileName,
    }.Text("a file's path");

    private static readonly Option<string> App = new Option<string>("--app")
    {
        Description = "The container app's name.",
        Required = true,
    }.Text("an app's name");

    private static readonly Option<string> Cpu = new Option<string>("--cpu")
    {
        Description = "The app's allocated vCPUs as Azure states them (resources.cpu).",
        Required = true,
    }.Takes("a number of vCPUs (e.g. 0.5)", text => AllocatedSize.VcpusIn(text) is null ? null : text);

    private static readonly Option<string> Memory = new Option<string>("--memory")
    {
        Description = "The app's allocated memory as Azure states it (resources.memory).",
        Required = true,
    }.Takes("a memory size in Gi (e.g. 1Gi)", text => AllocatedSize.GibsIn(text) is null ? null : text);

    private static readonly Option<double[]> UsageNanoCores = Metric("--usage-nanocores",
        "The app's UsageNanoCores averages over the burst's window, one per replica-minute");

    private static readonly Option<double[]> WorkingSetBytes = Metric("--working-set-bytes",
        "The app's WorkingSetBytes maxima over the burst's window");

    private static readonly Option<TelemetryVolume> Volume = VolumeOption();

    private static readonly Option<string> Telemetry = new Option<string>("--telemetry")
    {
        Description = "The burst's telemetry cost, MB billed and cost tab-separated: telemetry-cost writes it, " +
                      "append keeps it in the history (\"-\" without the file).",
    }.Text("a file's path");

    private static Command TelemetryCostCommand(IAnsiConsole console) =>
        new Command("telemetry-cost", "What the burst's telemetry and logs cost in Log Analytics: items and billed " +
                                      "bytes per table, per order, priced per GB ingested.")
        {
            Volume, Count, Prices, Telemetry,
        }.Writes(Telemetry).Runs(async (result, ct) =>
        {
            var file = result.GetValue(Prices)!;
            var price = LogAnalyticsPrice.Load(Environment.GetEnvironmentVariable, file)
                        ?? throw new InvalidDataException(
                            $"No Log Analytics price: set LOG_ANALYTICS_PRICE_GB in the environment or in {file}");
            var volume = result.GetValue(Volume)!;
            if (result.GetValue(Telemetry) is { } path)
            {
                await volume.Cost(price).WriteAsync(path, ct);
            }

            return Print(console, volume.Line(result.GetValue(Count), price));
        });

    private static Command AppCostCommand(IAnsiConsole console) =>
        new Command("app-cost", "An app's line: CPU-seconds used, peak memory, and its replica-minutes priced at " +
                                "the allocated size; adds the app's share to --costs.")
        {
            App, Cpu, Memory, UsageNanoCores, WorkingSetBytes, Costs, Prices,
        }.Writes(Costs).Runs(async (result, ct) =>
        {
            var prices = PricesOf(result);
            var cost = AppCost.Of(result.GetValue(App)!,
                AllocatedSize.Parse(result.GetValue(Cpu)!, result.GetValue(Memory)!)!,
                result.GetValue(UsageNanoCores)!, result.GetValue(WorkingSetBytes)!, prices);
            await cost.Share.AppendAsync(result.GetValue(Costs)!, ct);
            return Print(console, cost.Line(prices.Currency));
        });

    private static Command CostTotalCommand(IAnsiConsole console) =>
        new Command("cost-total", "The burst's cost: every app's in --costs added, at the prices it names.")
        {
            Costs, Count, Prices,
        }.Runs(async (result, ct) =>
        {
            var prices = PricesOf(result);
            var total = CostShare.Total(await CostSharesAsync(result, ct) ?? []);
            return Print(console, string.Create(CultureInfo.InvariantCulture,
                $"burst cost at Container Apps consumption prices (ACA_PRICE_VCPU_SECOND={Price(prices.VcpuSecond)}, " +
                $"ACA_PRICE_GIB_SECOND={Price(prices.GibSecond)} {prices.Currency}): {total.Cost:F6} " +
                $"{prices.Currency} for {result.GetValue(Count)} orders; {total.CpuSeconds:F2} CPU-s used by the " +
                $"apps"));
        });

    /// <summary>The burst's cost for the history: "-" for each when no app's cost was read.</summary>
    private static async Task<IReadOnlyList<string>> CostCellsAsync(ParseResult result, CancellationToken ct) =>
        await CostSharesAsync(result, ct) is { } shares ? CostShare.Total(shares).Cells() : ["-", "-", "-"];

    /// <summary>The burst's telemetry cost for the history: "-" for each when it was not read.</summary>
    private static async Task<IReadOnlyList<string>> TelemetryCellsAsync(ParseResult result, CancellationToken ct) =>
        result.GetValue(Telemetry) is { } path && await TelemetryCost.ReadAsync(path, ct) is { } cost
            ? cost.Cells()
            : ["-", "-"];

    private static Task<IReadOnlyList<CostShare>?> CostSharesAsync(ParseResult result, CancellationToken ct) =>
        CostShare.ReadAllAsync(result.GetValue(Costs)!, ct);

    private static ContainerAppsPrices PricesOf(ParseResult result)
    {
        var file = result.GetValue(Prices)!;
        return ContainerAppsPrices.Load(Environment.GetEnvironmentVariable, file)
               ?? throw new InvalidDataException("No Container Apps prices: set ACA_PRICE_VCPU_SECOND and " +
                                                 $"ACA_PRICE_GIB_SECOND in the environment or in {file}");
    }

    private static string Price(double perSecond) =>
        perSecond.ToString("0.###############", CultureInfo.InvariantCulture);

    /// <summary>The telemetry query's rows as az prints them (-o tsv); anything else is refused.</summary>
    private static Option<TelemetryVolume> VolumeOption()
    {
        var option = new Option<TelemetryVolume>("--volume")
        {
            Description = "scripts/kql/telemetry-volume.kql's rows for the burst's window as az prints them (-o " +
                          "tsv): a table's name, its items and billed bytes, tab-separated, one table a line.",
            Required = true,
            Arity = ArgumentArity.ExactlyOne,
        };
        option.CustomParser = result =>
        {
            if (TelemetryVolume.Parse(result.Tokens is [{ Value: var text }] ? text : "") is { } volume)
            {
                return volume;
            }

            result.AddError("--volume takes the query's rows: a table's name, its items and its billed bytes, " +
                            "tab-separated, one table a line.");
            return new TelemetryVolume([]);
        };
        return option;
    }

    /// <summary>Metric values as az prints them (-o tsv), one per line; a value that is no number is refused.</summary>
    private static Option<double[]> Metric(string name, string description)
    {
        var option = new Option<double[]>(name)
        {
            Description = description + " (separated by new lines or spaces; empty for none).",
            Required = true,
            Arity = ArgumentArity.ExactlyOne,
        };
        option.CustomParser = result =>
        {
            var cells = (result.Tokens is [{ Value: var text }] ? text : "")
                .Split(MetricSeparators, StringSplitOptions.RemoveEmptyEntries);
            var values = cells.Select(Number).ToArray();
            if (Array.IndexOf(values, null) is var bad and >= 0)
            {
                result.AddError($"{name} takes numbers, one per line as az prints them, not '{cells[bad]}'.");
                return [];
            }

            return values.Select(value => value!.Value).ToArray();
        };
        return option;
    }

    private static double? Number(string text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value)
        && double.IsFinite(value) && value >= 0
            ? value
            : null;
}
