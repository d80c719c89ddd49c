using OrderDistribution.LoadTool.BurstRecords;

namespace OrderDistribution.LoadTool.Tests.BurstRecords;

/// <summary>The history of Azure bursts: which earlier bursts a new one compares with.</summary>
public sealed class BurstHistoryTests : IDisposable
{
    private const string One = "distributor=1 receiver-express=1 receiver-standard=1";

    private readonly string _folder = Directory.CreateTempSubdirectory("order-load-history").FullName;

    private string History => Path.Combine(_folder, "results", "azure-bursts-dev.tsv");

    [Fact]
    public async Task A_new_history_starts_with_its_header_and_holds_no_comparable_burst()
    {
        var alike = await BurstHistory.CountComparableAsync(History, "pubsub-bulk", "cold", One, "off", default);

        Assert.Equal(0, alike);
        Assert.Equal([BurstHistory.Header], await File.ReadAllLinesAsync(History));
    }

    [Fact]
    public async Task Only_earlier_bursts_of_the_same_model_start_replicas_at_the_instant_and_compilation_compare()
    {
        const string four = "distributor=4 receiver-express=4 receiver-standard=4";
        Directory.CreateDirectory(Path.GetDirectoryName(History)!);
        await File.WriteAllLinesAsync(History,
        [
            BurstHistory.Header,
            $"2026-11-20T10:00:30Z\tpubsub-bulk\twarm\t{One}\t{One}\t1.00\t150\t0.000100\toff",
            $"2026-11-20T10:10:30Z\tpubsub-bulk\twarm\t{four}\t{four}\t1.00\t150\t0.000100\toff",
            $"2026-11-20T10:20:30Z\tpubsub-bulk\tcold\t{One}\t{One}\t1.00\t150\t0.000100\toff",
            $"2026-11-20T10:30:30Z\tbindings\twarm\t{One}\t{One}\t1.00\t150\t0.000100\toff",
            $"2026-11-20T10:40:30Z\tpubsub-bulk\twarm\t{One}\t{One}\t-\t-\t-\toff",
            $"2026-11-20T10:50:30Z\tpubsub-bulk\twarm\t{One}\t{One}\t0.50\t150\t0.000050\ton",
        ]);

        Assert.Equal(2, await BurstHistory.CountComparableAsync(History, "pubsub-bulk", "warm", One, "off", default));
        Assert.Equal(1, await BurstHistory.CountComparableAsync(History, "pubsub-bulk", "warm", One, "on", default));
        Assert.Equal(7, (await File.ReadAllLinesAsync(History)).Length);
    }

    [Fact]
    public async Task A_history_from_before_compilation_was_kept_gets_the_new_header_and_its_bursts_compare_with_none()
    {
        const string before =
            "scheduled_at\tmodel\tstart\treplicas_at_instant\treplicas_at_end\tcpu_seconds\tpeak_mib\tcost_usd";
        var earlier = $"2026-11-20T10:00:30Z\tpubsub-bulk\twarm\t{One}\t{One}\t1.00\t150\t0.000100";
        Directory.CreateDirectory(Path.GetDirectoryName(History)!);
        await File.WriteAllLinesAsync(History, [before, earlier]);

        Assert.Equal(0, await BurstHistory.CountComparableAsync(History, "pubsub-bulk", "warm", One, "off", default));
        await BurstHistory.AppendAsync(History,
            new BurstHistoryRow(null, "pubsub-bulk", "warm", One, One, ["-", "-", "-"], "off", ["-", "-"]), default);

        Assert.Equal([BurstHistory.Header, earlier, $"-\tpubsub-bulk\twarm\t{One}\t{One}\t-\t-\t-\toff\t-\t-"],
            await File.ReadAllLinesAsync(History));
    }

    [Fact]
    public async Task A_history_from_before_the_telemetrys_cost_was_kept_gets_the_new_header_and_its_bursts_compare()
    {
        var before = BurstHistory.Header[..BurstHistory.Header.IndexOf("\ttelemetry_mb", StringComparison.Ordinal)];
        var earlier = $"2026-11-20T10:00:30Z\tpubsub-bulk\twarm\t{One}\t{One}\t1.00\t150\t0.000100\toff";
        Directory.CreateDirectory(Path.GetDirectoryName(History)!);
        await File.WriteAllLinesAsync(History, [before, earlier]);

        Assert.Equal(1, await BurstHistory.CountComparableAsync(History, "pubsub-bulk", "warm", One, "off", default));
        Assert.Equal([BurstHistory.Header, earlier], await File.ReadAllLinesAsync(History));
    }

    [Theory]
    [InlineData("")]
    [InlineData("distributor=1 receiver-express=? receiver-standard=1")]
    public async Task Replicas_not_read_at_the_instant_compare_with_no_burst(string replicas)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(History)!);
        await File.WriteAllLinesAsync(History,
            [BurstHistory.Header, $"2026-11-20T10:00:30Z\tpubsub-bulk\twarm\t{replicas}\t{One}\t-\t-\t-\toff"]);

        Assert.Null(await BurstHistory.CountComparableAsync(History, "pubsub-bulk", "warm", replicas, "off", default));
    }

    [Fact]
    public async Task A_burst_is_appended_under_the_header_with_what_was_not_read_marked()
    {
        var instant = new ScheduledInstant(new DateTimeOffset(2026, 11, 20, 10, 0, 30, TimeSpan.Zero), 0);

        await BurstHistory.AppendAsync(History,
            new BurstHistoryRow(instant, "pubsub-bulk", "cold", "", One, ["18.00", "170", "0.001800"], "on",
                ["16.41", "0.037743"]), default);
        await BurstHistory.AppendAsync(History,
            new BurstHistoryRow(null, "bindings", "warm", One, One, ["-", "-", "-"], "off", ["-", "-"]), default);

        Assert.Equal(
        [
            BurstHistory.Header,
            $"2026-11-20T10:00:30Z\tpubsub-bulk\tcold\t?\t{One}\t18.00\t170\t0.001800\ton\t16.41\t0.037743",
            $"-\tbindings\twarm\t{One}\t{One}\t-\t-\t-\toff\t-\t-",
        ], await File.ReadAllLinesAsync(History));
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
