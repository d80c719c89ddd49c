using System.CommandLine;
using System.Text.RegularExpressions;
using OrderDistribution.LoadTool.AzureBursts;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.LoadTool.Reporting;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.LoadToolOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// <c>azure-burst</c>: what scripts/azure-burst.sh asks the tool about a burst: <c>read</c>, one line of what the
/// schedule record (--state) and the burst's result say, and <c>record</c>, which keeps what the script read from
/// Azure in that result and prints its cost.
/// </summary>
internal static partial class AzureBurstCommand
{
    private static readonly Option<DateTimeOffset?> Started = new Option<DateTimeOffset?>("--started")
    {
        Description = "When the burst started, by this machine's clock.",
    }.Epoch();

    private static readonly Option<DateTimeOffset?> Ended = new Option<DateTimeOffset?>("--ended")
    {
        Description = "When the burst ended (its queues drained), by this machine's clock.",
    }.Epoch();

    private static readonly Option<string> ReplicasAtInstant = Replicas("--replicas-at-instant",
        "Each app's replica count at the scheduled instant (\"app=count ...\"; empty or \"app=?\" when not read).");

    private static readonly Option<string> ReplicasAtEnd = Replicas("--replicas-at-end",
        "Each app's replica count at the end, as --replicas-at-instant.");

    private static readonly Option<string> TieredCompilation = new Option<string>("--tiered-compilation")
    {
        Description = "Whether the deployed apps run with tiered compilation: on, off or mixed.",
        Required = true,
    }.Takes("on, off or mixed", text => text is "on" or "off" or "mixed" ? text : null);

    private static readonly Option<string[]> App = Each("--app", "An app whose cost was read (one per app).",
        "an app's name", NotEmpty);

    private static readonly Option<string[]> Cpu = Each("--cpu", "The app's allocated vCPUs (resources.cpu).",
        "the vCPUs as Azure states them", NotEmpty);

    private static readonly Option<string[]> Memory = Each("--memory",
        "The app's allocated memory (resources.memory).", "the memory as Azure states it", NotEmpty);

    private static readonly Option<string[]> UsageNanoCores = Each("--usage-nanocores",
        "The app's UsageNanoCores averages over the window, one per replica-minute, as az prints them (empty for " +
        "none).");

    private static readonly Option<string[]> WorkingSetBytes = Each("--working-set-bytes",
        "The app's WorkingSetBytes maxima over the window, as az prints them (empty for none).");

    private static readonly Option<string> TelemetryVolume = new Option<string>("--telemetry-volume")
    {
        Description = "scripts/kql/telemetry-volume.kql's rows for the window as az prints them (-o tsv); " +
                      "without it, the telemetry was not queried.",
    }.Text("the query's rows");

    private static readonly Option<string> Prices = new Option<string>("--prices")
    {
        Description = "The prices the environment does not set (ACA_PRICE_VCPU_SECOND, ACA_PRICE_GIB_SECOND, " +
                      "LOG_ANALYTICS_PRICE_GB; default: the nearest " + ContainerAppsPrices.FileName +
                      " above this folder).",
        DefaultValueFactory = _ => ContainerAppsPrices.FindFile(Directory.GetCurrentDirectory())
                                   ?? ContainerAppsPrices.FileName,
    }.Text("a file's path");

    public static Command Create(IAnsiConsole console) =>
        new("azure-burst", "What scripts/azure-burst.sh asks about a burst.")
        {
            new Command("read", "One line: seconds to the scheduled instant, the instant and the clock skew, the " +
                                "query window and the end in storage's time, and the burst's cycle seconds, count " +
                                "and missing from its result (\"-\" for what is not known).")
            {
                State, Results, Started, Ended,
            }.Runs(async (result, ct) => Print(console, ExitCodes.Done, [
                await AzureBurstBook.ReadAsync(result.PathOf(State), result.PathOf(Results),
                    result.GetValue(Started), result.GetValue(Ended), TimeProvider.System.GetUtcNow(), ct),
            ])),
            new Command("record", "Price each app's metrics and the telemetry, keep them with the replicas in the " +
                                  "burst's result, and say how many earlier bursts compare with it.")
            {
                State, Results, Count, ReplicasAtInstant, ReplicasAtEnd, TieredCompilation, App, Cpu, Memory,
                UsageNanoCores, WorkingSetBytes, TelemetryVolume, Prices,
            }.Writes(Results).Runs(async (result, ct) =>
            {
                var (exit, lines) = await AzureBurstBook.RecordAsync(Readings(result), ct);
                return Print(console, exit, lines);
            }),
        };

    private static AzureBurstReadings Readings(ParseResult result)
    {
        var apps = result.GetValue(App) ?? [];
        var perApp = new[] { Cpu, Memory, UsageNanoCores, WorkingSetBytes }
            .Select(o => result.GetValue(o) ?? []).ToList();
        if (perApp.Any(values => values.Length != apps.Length))
        {
            throw new ArgumentException(
                "--app, --cpu, --memory, --usage-nanocores and --working-set-bytes come once each per app");
        }

        return new AzureBurstReadings(result.PathOf(State), result.PathOf(Results), result.GetValue(Count),
            result.GetValue(ReplicasAtInstant)!, result.GetValue(ReplicasAtEnd)!,
            result.GetValue(TieredCompilation)!,
            [.. apps.Select((app, i) => new AppMetrics(app, perApp[0][i], perApp[1][i], perApp[2][i], perApp[3][i]))],
            result.GetValue(TelemetryVolume), result.GetValue(Prices)!);
    }

    private static Option<string> Replicas(string name, string description) =>
        new Option<string>(name) { Description = description, Required = true }.Takes(
            "app=count pairs apart by spaces (count ? when not read), or nothing",
            text => ReplicaCounts().IsMatch(text) ? text : null);

    /// <summary>An option given once per app, whatever its values.</summary>
    private static Option<string[]> Each(string name, string description) =>
        new(name) { Description = description, Arity = ArgumentArity.ZeroOrMore };

    /// <summary>An option given once per app, a value refused with what <paramref name="bad"/> finds in it.</summary>
    private static Option<string[]> Each(string name, string description, string what, Func<string, string?> bad)
    {
        var option = Each(name, description);
        option.Validators.Add(result =>
        {
            if (result.Tokens.Select(token => bad(token.Value)).FirstOrDefault(found => found is not null) is { } text)
            {
                result.AddError($"{name} takes {what}, not '{text}'.");
            }
        });
        return option;
    }

    private static string? NotEmpty(string text) => text.Length == 0 ? text : null;

    [GeneratedRegex(@"^([\w-]+=(\d+|\?)( [\w-]+=(\d+|\?))*)?$")]
    private static partial Regex ReplicaCounts();

    private static int Print(IAnsiConsole console, int exit, IEnumerable<string> lines)
    {
        foreach (var line in lines)
        {
            ResultLine.Write(console, line);
        }

        return exit;
    }
}
