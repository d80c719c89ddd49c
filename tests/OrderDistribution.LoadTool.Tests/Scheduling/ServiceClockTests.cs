using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Scheduling;
using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Tests.Scheduling;

/// <summary>This machine's clock against a service's Date header: the one clock of the Azure cycle time.</summary>
public sealed class ServiceClockTests
{
    [Theory]
    [InlineData(3.2)]
    [InlineData(-7.65)]
    [InlineData(0.0)]
    [InlineData(42.999)]
    public async Task The_skew_is_found_to_well_under_the_date_headers_whole_second(double serviceAheadSeconds)
    {
        var local = new SteppingClock(step: TimeSpan.FromMilliseconds(117));
        var offset = TimeSpan.FromSeconds(serviceAheadSeconds);
        // The service stamps its Date with whole seconds of its own clock, while the request is in flight.
        var clock = new ServiceClock(_ =>
        {
            local.Advance(TimeSpan.FromMilliseconds(50));
            var service = local.Peek() + offset;
            return Task.FromResult<DateTimeOffset?>(DateTimeOffset.FromUnixTimeSeconds(service.ToUnixTimeSeconds()));
        }, local, TimeSpan.Zero);

        var skew = await clock.MeasureAsync(default);

        Assert.InRange(offset, skew.Offset - skew.Uncertainty, skew.Offset + skew.Uncertainty);
        Assert.True(skew.Uncertainty < TimeSpan.FromMilliseconds(300),
            $"±{skew.Uncertainty.TotalMilliseconds} ms from {ServiceClock.RoundTrips} round trips");
        Assert.Equal(local.Peek() + offset, skew.ToServiceTime(local.Peek()), TimeSpan.FromMilliseconds(300));
    }

    [Fact]
    public async Task Storage_without_a_date_header_is_one_line_saying_the_clocks_cannot_be_compared()
    {
        var clock = new ServiceClock(_ => Task.FromResult<DateTimeOffset?>(null), TimeProvider.System, TimeSpan.Zero);

        var failure = await Assert.ThrowsAsync<LoadToolException>(() => clock.MeasureAsync(default));

        Assert.Equal(ExitCodes.Unexpected, failure.ExitCode);
        Assert.Contains("without a Date header", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Azurite_on_this_machine_reads_as_the_same_clock_through_the_real_blob_client()
    {
        await using var azurite = await Azurite.StartAsync();
        var container = new BlobContainerClient(azurite.ConnectionString, WatchExpectation.OutboxFor(Delivery.Express));
        await container.CreateIfNotExistsAsync();

        var skew = await ServiceClock.OfContainer(container).MeasureAsync(default);

        // Same machine, same clock: no skew, to within the measurement's own doubt (and a little scheduling noise).
        Assert.InRange(TimeSpan.Zero, skew.Offset - skew.Uncertainty - TimeSpan.FromMilliseconds(50),
            skew.Offset + skew.Uncertainty + TimeSpan.FromMilliseconds(50));
        Assert.True(skew.Uncertainty < TimeSpan.FromMilliseconds(500), $"±{skew.Uncertainty.TotalMilliseconds} ms");
        Assert.Contains("Clock: storage's clock is", skew.Describe("storage"), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Storage_that_cannot_be_reached_is_one_line_with_the_reason_and_exit_3()
    {
        var port = Azurite.FreePort();
        var options = new BlobClientOptions { Retry = { MaxRetries = 0 } };
        var container = new BlobContainerClient(
            new Uri($"http://127.0.0.1:{port}/{Azurite.AccountName}/{WatchExpectation.OutboxFor(Delivery.Express)}"),
            options);

        var failure = await Assert.ThrowsAsync<LoadToolException>(() =>
            ServiceClock.OfContainer(container).MeasureAsync(default));

        Assert.Equal(ExitCodes.Unreachable, failure.ExitCode);
        Assert.StartsWith("Could not read storage's clock", failure.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', failure.Message);
    }

    /// <summary>A local clock that moves on by a step each time it is read.</summary>
    private sealed class SteppingClock(TimeSpan step) : TimeProvider
    {
        private DateTimeOffset _now = new(2026, 11, 24, 10, 0, 0, 123, TimeSpan.Zero);

        public override DateTimeOffset GetUtcNow()
        {
            var now = _now;
            _now += step;
            return now;
        }

        public DateTimeOffset Peek() => _now;

        public void Advance(TimeSpan by) => _now += by;
    }
}
