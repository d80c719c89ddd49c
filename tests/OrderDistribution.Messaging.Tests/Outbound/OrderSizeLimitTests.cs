using Microsoft.Extensions.Options;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// The largest order is the smaller of the broker's largest message and one sidecar request less its envelope; an
/// order of exactly that size is sent, one byte more is refused, naming the limit it is over.
/// </summary>
public sealed class OrderSizeLimitTests
{
    private const long SidecarBytes = 4L * 1024 * 1024;

    [Theory]
    [InlineData(262_144, 262_144)]
    [InlineData(104_857_600, SidecarBytes - OrderSizeLimit.RequestEnvelopeBytes)]
    public void The_largest_order_is_the_smaller_of_the_brokers_and_the_sidecars_limit(int maxMessageBytes,
        long largest)
    {
        Assert.Equal(largest, Limit(maxMessageBytes).MaxOrderBytes);
    }

    [Theory]
    [InlineData(262_144)]
    [InlineData(104_857_600)]
    public void An_order_of_exactly_the_largest_size_is_sent_and_one_byte_more_is_refused(int maxMessageBytes)
    {
        var limit = Limit(maxMessageBytes);

        Assert.Null(limit.RefusalOf((int)limit.MaxOrderBytes));
        Assert.NotNull(limit.RefusalOf((int)limit.MaxOrderBytes + 1));
    }

    [Fact]
    public void An_order_over_the_brokers_limit_but_within_one_request_is_refused_for_the_broker()
    {
        var limit = Limit(262_144);
        var largestRequest = (int)(SidecarBytes - OrderSizeLimit.RequestEnvelopeBytes);

        Assert.Equal(
            "262145 bytes, more than the broker's largest message (262144 bytes, Messaging:MaxMessageBytes); " +
            "dropped without calling the sidecar",
            limit.RefusalOf(262_145));
        Assert.Contains("the broker's largest message", limit.RefusalOf(largestRequest), StringComparison.Ordinal);
        Assert.Equal(
            $"{largestRequest + 1} bytes, more than the sidecar takes in one request (4 MiB, " +
            "Dapr:MaxRequestBodySizeMb); dropped without calling it",
            limit.RefusalOf(largestRequest + 1));
    }

    private static OrderSizeLimit Limit(int maxMessageBytes) =>
        new(Options.Create(new MessagingOptions { MaxMessageBytes = maxMessageBytes }),
            new SidecarOptions { MaxRequestBodySizeMb = 4 });
}
