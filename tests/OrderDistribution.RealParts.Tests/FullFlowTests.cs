using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The whole flow on real sidecars, brokers and storage, in each model: orders in through the distributor's
/// sidecar, every valid order a blob exactly once, every poison order kept once on the dead-letter queue.
/// </summary>
[Trait("Category", "RealParts")]
public sealed class FullFlowTests
{
    [Theory(Timeout = RealTrio.TestTimeoutMilliseconds)]
    [InlineData(MessagingModel.PubSubBulk)]
    [InlineData(MessagingModel.PubSubSingle)]
    [InlineData(MessagingModel.Bindings)]
    public async Task Two_bursts_of_1000_orders_end_as_exactly_the_valid_blobs_each_poison_dropped_once_both_timed(
        MessagingModel model)
    {
        await using var trio = await RealTrio.StartAsync(model);
        using var load = new OrderLoad(trio);

        var cold = await load.BurstAsync(1_000, seed: 22, invalidRate: 0.01);
        cold.AssertExact(valid: 990, poison: 10);
        // A poison order not yet kept on the dead-letter queue comes back; kept once, it never does.
        await Task.Delay(TimeSpan.FromSeconds(5), TestContext.Current.CancellationToken);
        Assert.Equal(10, trio.App(Contract.Distributor).DroppedEntries);

        var warm = await load.BurstAsync(1_000, seed: 23);
        warm.AssertExact(valid: 1_000, poison: 0);
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"{trio.Model.Text()}: first burst after the start {cold.CycleSeconds:0.000} s, second " +
            $"{warm.CycleSeconds:0.000} s");
    }
}
