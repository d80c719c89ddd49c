namespace OrderDistribution.LoadTool.Tests;

/// <summary>The whole flow through real sidecars, Redis and Azurite: orders in, every order a blob once.</summary>
public sealed class FullFlowTests
{
    [RequiresLocalDaprTheory]
    [InlineData("pubsub", "bulk")]
    [InlineData("pubsub", "single")]
    [InlineData("bindings", "bulk")]
    public async Task A_burst_through_the_real_sidecars_ends_with_every_order_stored_exactly_once(string model, string mode)
    {
        var folder = Path.Combine(Path.GetTempPath(), $"full-flow-{Guid.NewGuid():N}");
        await using var trio = await LocalTrio.StartAsync(model, mode, TimeSpan.FromMinutes(3));
        var cli = new Cli();

        var exit = await cli.RunAsync(
            "run", "--count", "2000", "--seed", "21", "--model", model, "--pubsub-mode", mode, "--timeout", "180",
            "--orders", Path.Combine(folder, "orders.json"), "--state", Path.Combine(folder, "schedule.json"),
            "--results", Path.Combine(folder, "LOG.md"));

        Assert.True(exit == 0, cli.Output);
        Assert.Contains("2000/2000 orders stored", cli.Output, StringComparison.Ordinal);
        Assert.Contains("0 missing, 0 duplicated", cli.Output, StringComparison.Ordinal);
        Assert.Contains($"| {model}-{mode} | 2000 |", await File.ReadAllTextAsync(Path.Combine(folder, "LOG.md")), StringComparison.Ordinal);
    }
}
