using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.DataContracts;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.ApplicationInsights.WindowsServer.TelemetryChannel;
using OrderDistribution.TrioHarness;

namespace OrderDistribution.Trio.Tests;

/// <summary>
/// The benchmark's stand-in for Application Insights' ingestion (`models --telemetry`, docs/benchmark.md): what the
/// apps' own channel sends it, compressed, is counted by kind, so the items and bytes per order it prints are the
/// apps' real telemetry.
/// </summary>
public sealed class TelemetryIngestionTests
{
    [Fact]
    public async Task What_the_apps_channel_sends_it_is_counted_by_kind_with_its_json_bytes()
    {
        await using var ingestion = await TelemetryIngestion.StartAsync();
        using var channel = new ServerTelemetryChannel();
        using var configuration = new TelemetryConfiguration
        {
            ConnectionString = ingestion.ConnectionString,
            TelemetryChannel = channel,
        };
        channel.Initialize(configuration);
        var client = new TelemetryClient(configuration);
        var before = ingestion.Received();

        client.TrackRequest(new RequestTelemetry("POST /q-order-express", DateTimeOffset.UtcNow,
            TimeSpan.FromMilliseconds(3), "200", success: true));
        client.TrackRequest(new RequestTelemetry("POST /q-order-express", DateTimeOffset.UtcNow,
            TimeSpan.FromMilliseconds(4), "200", success: true));
        client.TrackEvent("OrdersStored");
        Assert.True(await client.FlushAsync(default), "the channel could not send to the stand-in");

        var received = ingestion.Received();
        Assert.Equal(2, received["RequestData"].Items);
        Assert.Equal(1, received["EventData"].Items);
        Assert.InRange(received["RequestData"].Bytes, 200, 4_000);
        Assert.Equal("1.500 items", TelemetryIngestion.PerOrder(received, before, orders: 2).Split(',')[0]);
    }
}
