using OrderDistribution.SidecarEmulator.Broker;

namespace OrderDistribution.SidecarEmulator.Tests.Broker;

/// <summary>The broker's entries, acknowledged and left pending as <c>pubsub.redis</c> does.</summary>
public sealed class EmulatedBrokerTests
{
    [Fact]
    public async Task A_settled_delivery_acknowledges_its_entry_so_the_copy_left_pending_beside_it_is_never_handed_out()
    {
        var options = new EmulatedSidecarOptions
        {
            ProcessingTimeout = TimeSpan.FromMilliseconds(100),
            RetryInterval = TimeSpan.FromMinutes(1),
            RedeliverInterval = TimeSpan.FromMilliseconds(20),
            Runtime = DaprRuntimeProfile.Dapr114,
        };
        using var broker = new EmulatedBroker(options);
        var report = broker.Reports.GetOrAdd("q", _ => new QueueReport());
        var handingOut = broker.HandOutPendingAsync();
        broker.Put("q", [1]);
        Assert.True(broker.Reader("q").TryRead(out var message));
        Assert.True(broker.Take("q", message, report, retriesOutliveContext: true));

        // Answered RETRY, its context ending before the next try: its entry is left pending beside the retries.
        broker.RetryOrPark("q", message, report, retriesOutliveContext: true);
        Assert.Equal(1, report.LeftPending);
        broker.Done("q", message);

        Assert.True(await broker.WaitUntilQuietAsync(TimeSpan.Zero), "the copy left pending is still outstanding");
        await Task.Delay(options.ProcessingTimeout * 3, TestContext.Current.CancellationToken);
        Assert.Equal(0, report.HandedOutAgain);
        Assert.False(broker.Reader("q").TryRead(out _));
        await broker.StopAsync();
        await handingOut;
    }
}
