using Microsoft.Extensions.Time.Testing;
using OrderDistribution.LoadTool.Queues;

namespace OrderDistribution.LoadTool.Tests.Queues;

/// <summary>
/// The queues' depths read every interval on a fake clock, counted in seconds from the burst's instant.
/// </summary>
public sealed class QueueSamplerTests
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 12, 0, 0, TimeSpan.Zero);
    private static readonly string[] Queues = ["q-order-ingress", "q-order-express", "q-order-standard"];

    [Fact]
    public async Task Seconds_count_from_the_instant_given_and_readings_before_it_are_left_out()
    {
        var clock = new FakeTimeProvider(Start);
        var depths = new Depths();
        var sampler = QueueSampler.Start(depths, Queues, time: clock);
        for (var second = 1; second <= 5; second++)
        {
            await depths.WaitAsync();
            clock.Advance(QueueSampler.Interval);
        }

        await depths.WaitAsync();
        var series = await sampler.StopAsync(Start.AddSeconds(2.5));
        await sampler.DisposeAsync();

        // Read at 3, 4 and 5 s: the instant's second 0 is [2.5 s, 3.5 s).
        Assert.Equal([0, 1, 2], series.Samples.Select(s => s.Second));
        Assert.Equal([3L, 4L, 5L], series.Samples.Select(s => s.Waiting["q-order-ingress"]));
        Assert.Null(series.Fault);
        Assert.True(depths.Disposed, "the depths' client outlived the sampler");
    }

    /// <summary>The ingress queue holds as many orders as readings were taken before; tells each reading.</summary>
    private sealed class Depths : IQueueDepths
    {
        private readonly SemaphoreSlim _read = new(0);
        private int _reads;

        public bool Disposed { get; private set; }

        public async Task WaitAsync() =>
            Assert.True(await _read.WaitAsync(TimeSpan.FromSeconds(30)), $"no reading after {_reads}");

        public Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken cancellationToken)
        {
            var waiting = new Dictionary<string, long> { ["q-order-ingress"] = _reads++ };
            _read.Release();
            return Task.FromResult<IReadOnlyDictionary<string, long>>(waiting);
        }

        public ValueTask DisposeAsync()
        {
            Disposed = true;
            return ValueTask.CompletedTask;
        }
    }
}
