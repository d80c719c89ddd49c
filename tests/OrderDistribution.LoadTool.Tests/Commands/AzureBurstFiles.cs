using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// The files <c>azure-burst</c> reads and writes, in a folder of the test's own: the schedule record (--state), the
/// results file and the prices; and the command as scripts/azure-burst.sh runs it.
/// </summary>
public abstract class AzureBurstFiles : IDisposable
{
    protected static readonly DateTimeOffset Instant = new(2026, 11, 20, 10, 0, 30, TimeSpan.Zero);

    private readonly TempFolder _folder = new("order-load-azure-burst");

    protected string Folder => _folder.Path;

    protected string Record => Path.Combine(_folder.Path, "azure-last-schedule.json");

    protected string Results => Path.Combine(_folder.Path, "LOG.jsonl");

    protected string Prices => Path.Combine(_folder.Path, "prices.env");

    public void Dispose()
    {
        _folder.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>
    /// The load tool's result of a burst of 10 scheduled at <paramref name="at"/> (the record's instant).
    /// </summary>
    protected static BurstResult Result(double? seconds, int missing, DateTimeOffset? at = null) =>
        new("pubsub-bulk", 1, BurstStart.Cold, 10, missing, seconds, at ?? Instant, null, null, []);

    protected Task WriteResultsAsync(params BurstResult[] results) =>
        File.WriteAllLinesAsync(Results, results.Select(ResultsFile.Line));

    protected Task WriteRecordAsync(string skew, DateTimeOffset? at = null) => File.WriteAllTextAsync(Record,
        $"{{\"ScheduledAt\":\"{at ?? Instant:O}\",\"Model\":\"pubsub-bulk\",\"Count\":10," +
        $"\"OrdersFile\":\"orders.json\",\"ClockSkewSeconds\":{skew}}}");

    protected Task<(int Exit, string Output)> RecordAsync(string replicas, string tiered, params string[] args) =>
        RunAsync(["record", "--results", Results, "--count", "10", "--replicas-at-instant", replicas,
            "--replicas-at-end", "distributor=3", "--tiered-compilation", tiered, "--prices", Prices, .. args]);

    protected async Task<(int Exit, string Output)> RunAsync(params string[] args)
    {
        var cli = new Cli();
        var exit = await cli.RunAsync(["azure-burst", .. args, "--state", Record]);
        return (exit, cli.Output);
    }
}
