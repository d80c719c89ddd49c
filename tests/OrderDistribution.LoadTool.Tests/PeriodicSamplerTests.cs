using System.Threading.Channels;
using Microsoft.Extensions.Time.Testing;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>The sampler behind the cost and queue series, on a fake clock.</summary>
public sealed class PeriodicSamplerTests
{
    private static readonly DateTimeOffset Start = new(2026, 1, 1, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task A_reading_is_taken_at_once_and_then_every_interval_each_stamped_with_the_clocks_time()
    {
        var clock = new FakeTimeProvider(Start);
        var readings = new Readings(clock);
        await using var sampler =
            new PeriodicSampler<DateTimeOffset>(readings.ReadAsync, TimeSpan.FromSeconds(2), clock);
        await readings.AdvanceAsync(TimeSpan.FromSeconds(2), times: 2);

        var samples = await sampler.StopAsync();

        Assert.Equal([Start, Start.AddSeconds(2), Start.AddSeconds(4)], samples.Taken.Select(s => s.At));
        Assert.Equal(samples.Taken.Select(s => s.At), samples.Taken.Select(s => s.Value));
        Assert.Null(samples.Fault);
    }

    [Fact]
    public async Task A_failed_reading_is_left_out_and_counted_with_the_first_reason_in_one_line_and_sampling_goes_on()
    {
        var clock = new FakeTimeProvider(Start);
        var readings = new Readings(clock, failing: [1, 2]);
        await using var sampler =
            new PeriodicSampler<DateTimeOffset>(readings.ReadAsync, TimeSpan.FromSeconds(1), clock);
        await readings.AdvanceAsync(TimeSpan.FromSeconds(1), times: 3);

        var samples = await sampler.StopAsync();

        Assert.Equal([Start, Start.AddSeconds(3)], samples.Taken.Select(s => s.At));
        Assert.Equal("2 of 4 readings failed, the first: broker away at reading 1", samples.Fault);
    }

    /// <summary>Readings that tell the test when each is taken, so that it moves the clock only after.</summary>
    private sealed class Readings(FakeTimeProvider clock, int[]? failing = null)
    {
        private readonly Channel<int> _taken = Channel.CreateUnbounded<int>();
        private int _count;

        public Task<DateTimeOffset> ReadAsync(CancellationToken _)
        {
            var n = _count++;
            _taken.Writer.TryWrite(n);
            return failing?.Contains(n) == true
                ? Task.FromException<DateTimeOffset>(
                    new InvalidOperationException($"broker away at reading {n}.\nmore"))
                : Task.FromResult(clock.GetUtcNow());
        }

        /// <summary>
        /// Waits for the reading taken at once, then moves the clock by each interval and waits for its.
        /// </summary>
        public async Task AdvanceAsync(TimeSpan interval, int times)
        {
            await _taken.Reader.ReadAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(30));
            for (var i = 0; i < times; i++)
            {
                clock.Advance(interval);
                await _taken.Reader.ReadAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(30));
            }
        }
    }
}
