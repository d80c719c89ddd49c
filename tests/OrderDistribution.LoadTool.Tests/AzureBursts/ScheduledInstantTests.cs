using System.Globalization;
using OrderDistribution.LoadTool.AzureBursts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.AzureBursts;

/// <summary>The scheduled instant and the clock skew, as scripts/azure-burst.sh reads them from the record.</summary>
public sealed class ScheduledInstantTests : IDisposable
{
    /// <summary>What every schedule record holds beside its instant.</summary>
    private const string Rest = "\"Model\":\"pubsub-bulk\",\"Count\":10,\"OrdersFile\":\"orders.json\"";

    private readonly TempFolder _folder = new("order-load-instant");

    [Theory]
    [InlineData(125.9, 125)]
    [InlineData(0.4, 0)]
    [InlineData(-0.4, 0)]
    [InlineData(-1.5, -1)]
    [InlineData(3e-7, 0)]
    public async Task The_skew_is_cut_to_whole_seconds_toward_zero(double measured, long whole)
    {
        var skew = measured.ToString("R", CultureInfo.InvariantCulture);
        var instant = await ReadAsync(
            $$"""{"ScheduledAt":"2026-11-20T10:00:30+00:00","ClockSkewSeconds":{{skew}},{{Rest}}}""");

        Assert.Equal(whole, instant!.SkewSeconds);
    }

    [Fact]
    public async Task The_instant_is_written_in_utc_with_a_z_keeping_a_fraction_of_a_second_only_when_there_is_one()
    {
        var offset = await ReadAsync($$"""{"ScheduledAt":"2026-11-20T11:00:30+01:00",{{Rest}}}""");
        var fraction = await ReadAsync($$"""{"ScheduledAt":"2026-11-20T10:00:30.25+00:00",{{Rest}}}""");

        Assert.Equal("2026-11-20T10:00:30Z", offset!.Text);
        Assert.Equal("2026-11-20T10:00:30.25Z", fraction!.Text);
    }

    [Fact]
    public async Task A_record_without_a_skew_is_one_of_storages_own_clock()
    {
        var instant = await ReadAsync($$"""{"ScheduledAt":"2026-11-20T10:00:30Z","ClockSkewSeconds":null,{{Rest}}}""");

        Assert.Equal(0, instant!.SkewSeconds);
    }

    [Fact]
    public async Task No_record_means_no_instant()
    {
        Assert.Null(await ScheduledInstant.ReadAsync(Path.Combine(_folder.Path, "none.json"), default));
    }

    [Theory]
    [InlineData("""{"ScheduledAt":"2026-11-20T10:00:30Z","ClockSkewSeconds":"soon"}""", "its ClockSkewSeconds is")]
    [InlineData(
        """{"ScheduledAt":"2026-11-20T10:00:30Z","ClockSkewSeconds":1e300,"Model":"pubsub-bulk","OrdersFile":"o"}""",
        "a query window can take")]
    [InlineData("""{"ClockSkewSeconds":1}""", "no scheduled time")]
    [InlineData("garbage", "not JSON")]
    public async Task A_record_that_gives_no_instant_or_a_skew_no_clock_has_is_refused_in_one_line_naming_it(
        string content, string why)
    {
        var path = Path.Combine(_folder.Path, "record.json");
        await File.WriteAllTextAsync(path, content);

        var refused = await Assert.ThrowsAsync<InvalidDataException>(() => ScheduledInstant.ReadAsync(path, default));

        Assert.StartsWith(path, refused.Message, StringComparison.Ordinal);
        Assert.Contains(why, refused.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", refused.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', refused.Message);
    }

    [Fact]
    public void The_wait_for_the_instant_is_counted_by_this_machines_clock_rounded_up_and_never_negative()
    {
        var at = new DateTimeOffset(2026, 11, 20, 10, 0, 30, TimeSpan.Zero);
        // Storage's clock is 5 s ahead: its 10:00:30 is this machine's 10:00:25.
        var instant = new ScheduledInstant(at, 5);

        Assert.Equal(15, instant.SecondsUntil(at.AddSeconds(-20)));
        Assert.Equal(1, instant.SecondsUntil(at.AddSeconds(-5.5)));
        Assert.Equal(0, instant.SecondsUntil(at));
    }

    public void Dispose() => _folder.Dispose();

    private async Task<ScheduledInstant?> ReadAsync(string content)
    {
        var path = Path.Combine(_folder.Path, $"{Guid.NewGuid():N}.json");
        await File.WriteAllTextAsync(path, content);
        return await ScheduledInstant.ReadAsync(path, default);
    }
}
