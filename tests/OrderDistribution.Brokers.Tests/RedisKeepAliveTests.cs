using System.Diagnostics;
using OrderDistribution.SidecarEmulator;
using OrderDistribution.TestSupport;
using OrderDistribution.TestSupport.Brokers;
using StackExchange.Redis;

namespace OrderDistribution.Brokers.Tests;

/// <summary>
/// On real Redis, what pubsub.redis on Dapr 1.19 does with a message it holds (components-contrib #4601): while a
/// delivery runs it claims the entry again for its own consumer (XCLAIM ... 0 JUSTID), which resets its idle time, and
/// the component hands out again only what has been idle processingTimeout (XCLAIM with that min-idle). The shipped
/// component's processingTimeout and entryKeepAliveInterval at a scale, as the sidecar emulator models them.
/// </summary>
public class RedisKeepAliveTests
{
    private const string Stream = "q-order-express";
    private const string Group = "receiver-express";

    /// <summary>20 s of processingTimeout run in 1 s.</summary>
    private const double Scale = 1.0 / 20;

    [Fact]
    public async Task With_the_shipped_component_a_message_whose_delivery_ended_on_1_19_can_be_handed_out_at_once()
    {
        var shipped = PubSubRetries.Shipped();
        var keptAlive = DaprRuntimeProfile.Dapr119.KeepsHeldEntriesAliveWith(shipped.EntryKeepAliveInterval);

        var claimable = await ClaimableAfterDeliveryEndsAsync(shipped.ProcessingTimeout * Scale, keptAlive);

        Assert.True(claimable, "Redis would not hand the message out again until processingTimeout after its " +
            "delivery ended: the component kept it alive");
    }

    [Fact]
    public async Task A_message_kept_alive_through_its_delivery_waits_processing_timeout_more_once_it_ended()
    {
        // The control: what the shipped setting turns off is seen by the test above.
        var processingTimeout = PubSubRetries.Shipped().ProcessingTimeout * Scale;

        Assert.False(await ClaimableAfterDeliveryEndsAsync(processingTimeout, keptAlive: true));
    }

    /// <summary>
    /// Reads one entry, holds it for a delivery that runs processingTimeout (keeping it alive every tenth of that, or
    /// not), and then asks for it as the component's redelivery does.
    /// </summary>
    /// <returns>Whether the entry could be claimed again once the delivery ended.</returns>
    private static async Task<bool> ClaimableAfterDeliveryEndsAsync(TimeSpan processingTimeout, bool keptAlive)
    {
        Assert.SkipWhen(RedisServer.MissingProgram is not null, $"{RedisServer.MissingProgram} is not installed");
        await using var redis = await RedisServer.StartAsync(["--appendonly", "no", "--save", ""]);
        await using var connection = await ConnectionMultiplexer.ConnectAsync(redis.Endpoint);
        var db = connection.GetDatabase();
        await db.StreamCreateConsumerGroupAsync(Stream, Group, "0", createStream: true);
        await db.StreamAddAsync(Stream, "data", OrderEntry.For(1));
        var read = Assert.Single(await db.StreamReadGroupAsync(Stream, Group, "sidecar-1", ">", count: 1));

        var delivery = Stopwatch.StartNew();
        while (delivery.Elapsed < processingTimeout)
        {
            await Task.Delay(processingTimeout / 10);
            if (keptAlive)
            {
                await db.StreamClaimIdsOnlyAsync(Stream, Group, "sidecar-1", 0, [read.Id]);
            }
        }

        // The delivery's context ended: the component looks for what has been idle processingTimeout.
        var claimed = await db.StreamClaimIdsOnlyAsync(Stream, Group, "sidecar-2",
            (long)processingTimeout.TotalMilliseconds, [read.Id]);
        return claimed.Contains(read.Id);
    }
}
