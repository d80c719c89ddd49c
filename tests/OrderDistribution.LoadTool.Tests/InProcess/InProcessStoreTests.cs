using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.InProcess;

/// <summary>
/// <c>in-process</c> measures the store it is given or refuses at once, before the trio starts: never another one.
/// </summary>
public sealed class InProcessStoreTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IDisposable
{
    private readonly TempFolder _folder = new("order-load-");

    /// <summary>Where the results would go: made only by a run that records something.</summary>
    private string Results => Path.Combine(_folder.Path, "results");

    [Fact]
    public async Task A_store_given_where_nothing_answers_is_refused_before_the_trio_starts_and_nothing_is_recorded()
    {
        var cli = new Cli();

        var exit = await cli.RunAsync("in-process", "--count", "10", "--storage",
            Azurite.ConnectionStringFor(Azurite.FreePort()),
            "--results", Path.Combine(Results, "LOG.jsonl"));

        Assert.True(exit == ExitCodes.Unreachable, cli.Output);
        Assert.Contains("is not reachable", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("Azurite started for this run", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("Starting the trio", cli.Output, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Results), "nothing recorded");
    }

    [Fact]
    public async Task A_store_that_refuses_the_key_is_named_as_refusing_within_seconds_before_the_trio_starts()
    {
        var wrongKey = storage.Azurite.ConnectionString.Replace(Azurite.AccountKey,
            Convert.ToBase64String(new byte[64]), StringComparison.Ordinal);
        var cli = new Cli();
        var clock = System.Diagnostics.Stopwatch.StartNew();

        var exit = await cli.RunAsync("in-process", "--count", "10", "--storage", wrongKey, "--results",
            Path.Combine(Results, "LOG.jsonl"));

        Assert.True(exit == ExitCodes.BadInput, cli.Output);
        Assert.Contains("refused the load tool (403", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("Starting the trio", cli.Output, StringComparison.Ordinal);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10), $"named after {clock.Elapsed}");
        Assert.False(Directory.Exists(Results), "nothing recorded");
    }

    public void Dispose() => _folder.Dispose();
}
