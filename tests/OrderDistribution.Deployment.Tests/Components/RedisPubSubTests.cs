using OrderDistribution.SidecarEmulator;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The local pub/sub, pubsub.redis: when it hands a pending message out again, and that it never drops one unread or
/// failed.
/// </summary>
public class RedisPubSubTests
{
    [Fact]
    public void Redis_hands_out_a_pending_message_again_only_after_the_longest_request_and_its_margin()
    {
        var redis = ComponentFolders.LocalPubSub();
        var processingTimeout = GoDuration.Parse(redis["processingTimeout"]);
        var deadline = RequestDeadline.Longest();

        // Any shorter and a batch the app is still answering is handed out a second time.
        Assert.True(processingTimeout >= deadline + TimeSpan.FromSeconds(5),
            $"processingTimeout {processingTimeout} is not 5 s above the apps' delivery deadline {deadline}");
        // Far below the component's 60 s default: recovery waits for this timer.
        Assert.True(processingTimeout <= TimeSpan.FromSeconds(30),
            $"processingTimeout {processingTimeout} delays recovery");
    }

    [Fact]
    public void Redis_looks_for_messages_to_redeliver_every_few_seconds_on_every_runtime()
    {
        var redis = ComponentFolders.LocalPubSub();
        var redeliverInterval = RedisRedeliverInterval.OnEveryRuntime(redis["redeliverInterval"]);
        var processingTimeout = GoDuration.Parse(redis["processingTimeout"]);

        // 0 disables redelivery; a quarter of processingTimeout at most adds little to it.
        Assert.True(redeliverInterval > TimeSpan.Zero, "redeliverInterval 0 disables redelivery");
        Assert.True(redeliverInterval * 4 <= processingTimeout,
            $"redeliverInterval {redeliverInterval} is long next to processingTimeout {processingTimeout}");
    }

    [Theory]
    [MemberData(nameof(Runtimes))]
    public void A_message_whose_delivery_ended_is_handed_out_again_at_the_next_look_on_every_runtime(string runtime)
    {
        var shipped = PubSubRetries.Shipped();
        var keptAlive = DaprRuntimeProfile.Of(runtime).KeepsHeldEntriesAliveWith(shipped.EntryKeepAliveInterval);

        // Kept alive while the sidecar held it, it is idle only from its context's end: processingTimeout more before
        // it is handed out again, after every storage outage.
        var longestWait = (keptAlive ? shipped.ProcessingTimeout : TimeSpan.Zero) + shipped.RedeliverInterval;
        Assert.True(longestWait <= shipped.RedeliverInterval,
            $"on Dapr {runtime} a message whose delivery ended waits up to {longestWait.TotalSeconds:0} s");
    }

    public static TheoryData<string> Runtimes() => new(DaprRuntimeProfile.All.Select(r => r.Version));

    [Theory]
    [InlineData("2000", 2_000)]
    [InlineData("", 15_000)]
    [InlineData(null, 15_000)]
    public void A_redeliverInterval_in_milliseconds_or_none_runs_the_same_on_every_runtime(
        string? value, int milliseconds) =>
        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), RedisRedeliverInterval.OnEveryRuntime(value));

    [Fact]
    public void A_redeliverInterval_as_a_duration_is_refused_because_runtimes_before_1_19_ignore_it()
    {
        var refusal = Assert.Throws<FormatException>(() => RedisRedeliverInterval.OnEveryRuntime("2s"));

        Assert.Equal("redeliverInterval '2s' runs as 2000 ms on Dapr 1.19, but 1.14 to 1.18 ignore it and run with " +
            "15 s: give it in milliseconds", refusal.Message);
    }

    [Fact]
    public void Redis_never_acknowledges_a_delivery_that_failed()
    {
        var redis = ComponentFolders.LocalPubSub();

        // ackOnError would drop a message once the resiliency retries ran out: a lost order.
        Assert.NotEqual("true", redis["ackOnError"]?.ToLowerInvariant());
    }

    [Fact]
    public void Redis_streams_have_no_length_cap_that_could_drop_unread_entries()
    {
        var redis = ComponentFolders.LocalPubSub();

        // A cap trims the oldest entries whether a consumer group has read them or not; the local run trims up to
        // what the groups still need instead (scripts/trim-streams.lua, tested on real Redis).
        Assert.Null(redis["maxLenApprox"]);
        Assert.Null(redis["maxLen"]);
    }
}
