using Microsoft.Extensions.Logging;
using OrderDistribution.LoadTool;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The whole flow on real sidecars, brokers and storage, in each model: orders in through the distributor's
/// sidecar, every valid order a blob exactly once, every poison order dropped once.
/// </summary>
[Trait("Category", "RealParts")]
public sealed class FullFlowTests
{
    [Theory]
    [InlineData(ComponentsModel.Pubsub, "bulk")]
    [InlineData(ComponentsModel.Pubsub, "single")]
    [InlineData(ComponentsModel.Bindings, "bulk")]
    public async Task Two_bursts_of_a_thousand_orders_end_as_exactly_the_valid_blobs_each_poison_order_dropped_once_and_both_times_are_printed(
        ComponentsModel model, string mode)
    {
        await using var trio = await RealTrio.StartAsync(model, mode);
        using var load = new OrderLoad(trio);
        var output = TestContext.Current.TestOutputHelper!;

        var cold = await load.BurstAsync(1_000, seed: 22, invalidRate: 0.01);
        AssertExact(cold, valid: 990, poison: 10);
        // A poison order answered anything but DROP comes back; dropped once, it never does.
        await Task.Delay(TimeSpan.FromSeconds(5), TestContext.Current.CancellationToken);
        Assert.Equal(10, DropLines(trio.App(Contract.Distributor)));

        var warm = await load.BurstAsync(1_000, seed: 23);
        AssertExact(warm, valid: 1_000, poison: 0);
        output.WriteLine($"{trio.Model.ToString().ToLowerInvariant()}-{mode}: first burst after the start {cold.CycleSeconds:0.000} s, second {warm.CycleSeconds:0.000} s");
    }

    internal static void AssertExact(OrderLoadResult run, int valid, int poison)
    {
        Assert.True(run.ExitCode == 0, run.Output);
        Assert.Contains($" {valid}/{valid} orders stored", run.Output, StringComparison.Ordinal);
        Assert.Contains("0 missing, 0 duplicated", run.Output, StringComparison.Ordinal);
        if (poison > 0)
        {
            Assert.Contains($"{poison} poison dropped (expected)", run.Output, StringComparison.Ordinal);
            Assert.DoesNotContain("poison stored", run.Output, StringComparison.Ordinal);
        }
    }

    internal static int DropLines(InProcessApp app) =>
        app.Logs.Lines.Count(l => l.Level == LogLevel.Warning && l.Message.StartsWith("Dropped entry ", StringComparison.Ordinal));
}
