using System.CommandLine;
using OrderDistribution.LoadTool.Ceiling;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Reporting;
using Spectre.Console;
using static OrderDistribution.LoadTool.Commands.CommonOptions;

namespace OrderDistribution.LoadTool.Commands;

/// <summary><c>ceiling</c>: storage alone, the best any model can do; one row in the results log and its per-second series.</summary>
internal static class CeilingCommand
{
    private static readonly Option<int> Uploads = new("--count")
    {
        Description = "How many order blobs to upload.", DefaultValueFactory = _ => 10_000,
    };

    private static readonly Option<int> InFlight = new("--in-flight")
    {
        Description = "Uploads in flight at once (the receivers' Receiver:MaxConcurrentWrites default).", DefaultValueFactory = _ => 64,
    };

    public static Command Create(IAnsiConsole console, LoadToolCommands.Wrap wrap) =>
        wrap(new Command("ceiling", "Measure storage alone: upload order blobs into a scratch container (deleted afterwards), " +
                                    "never the outboxes; append the result to the results log.")
            {
                Uploads, InFlight, Results,
            },
            (result, ct) => RunAsync(console, result, ct));

    private static async Task<int> RunAsync(IAnsiConsole console, ParseResult result, CancellationToken ct)
    {
        var count = result.GetValue(Uploads) is >= 1 and <= 1_000_000 and var c
            ? c
            : throw new ArgumentException($"--count must be between 1 and 1000000, not {result.GetValue(Uploads)}.");
        var inFlight = result.GetValue(InFlight) is >= 1 and <= 1_024 and var n
            ? n
            : throw new ArgumentException($"--in-flight must be between 1 and 1024, not {result.GetValue(InFlight)}.");
        var ceiling = StorageCeiling.Open(CommandSupport.StorageOptionsOf(result));
        // The same orders every time: the blobs' sizes, and so the measurement, do not vary with the seed.
        var orders = OrderGenerator.Generate(count, seed: 1);

        var measured = await CommandSupport.WithProgressAsync(console, $"Uploading {count} blobs, {inFlight} in flight", count,
            (progress, _) => ceiling.MeasureAsync(orders, inFlight, progress, ct));

        var series = StoredSeries.From(measured.StartedAt, measured.UploadedAt);
        if (series.PerSecond.Count > 0)
        {
            console.Write(series.Chart());
        }

        console.WriteLine(Summary(measured));
        if (measured.LeftBehind is { } name)
        {
            console.MarkupLineInterpolated($"[yellow]Could not remove what the measurement wrote into {name} at {ceiling.Endpoint}: delete its blobs by hand.[/]");
        }

        var results = result.GetValue(Results)!;
        await ResultsLog.AppendAsync(results,
            ResultsRow.Of(measured.StartedAt, StorageCeiling.Label, count, measured.Failed == 0 ? measured.Elapsed : null, measured.Failed, null), ct);
        console.MarkupLineInterpolated($"Uploads per second: {await series.WriteCsvBesideAsync(results, measured.StartedAt, StorageCeiling.Label, ct)}");
        return measured.Failed == 0 ? ExitCodes.Done : ExitCodes.Incomplete;
    }

    public static string Summary(CeilingResult measured) => string.Create(System.Globalization.CultureInfo.InvariantCulture,
        $"{StorageCeiling.Label}: {measured.Count - measured.Failed}/{measured.Count} uploads in {measured.Elapsed.TotalSeconds:0.000} s, {measured.UploadsPerSecond:0} uploads/s, {measured.InFlight} in flight, {measured.Failed} failed{(measured.FirstFailure is { } why ? $" (first: {why})" : "")}");
}
