using OrderDistribution.LoadTool.AzureBursts;

namespace OrderDistribution.LoadTool.Tests.AzureBursts;

/// <summary>The window a burst's telemetry is queried over.</summary>
public sealed class QueryWindowTests
{
    [Fact]
    public void The_window_is_this_machines_start_and_end_in_storages_time_widened_a_minute_each_side()
    {
        var started = new DateTimeOffset(2026, 11, 20, 10, 0, 0, TimeSpan.Zero);

        var window = QueryWindow.Of(started, started.AddMinutes(5), TimeSpan.FromSeconds(125));

        Assert.Equal("2026-11-20T10:01:05Z 2026-11-20T10:08:05Z", window.Format());
    }

    [Fact]
    public void A_clock_behind_this_machines_moves_the_window_earlier()
    {
        var started = new DateTimeOffset(2026, 11, 20, 10, 0, 0, TimeSpan.FromHours(2));

        var window = QueryWindow.Of(started, started.AddSeconds(30), TimeSpan.FromSeconds(-3));

        Assert.Equal("2026-11-20T07:58:57Z 2026-11-20T08:01:27Z", window.Format());
    }
}
