using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.DataContracts;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// What a receiver sends Application Insights per delivery: the request (the cycle time's queries read it), not one
/// dependency per blob upload, which no query reads and which cost CPU and ingestion per order (docs/benchmark.md,
/// "A receiver's CPU per order: precompiled code and telemetry").
/// </summary>
public sealed class RequestTelemetryTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    [Fact]
    public async Task A_delivery_is_tracked_as_its_request_and_its_blob_uploads_are_not_tracked_one_by_one()
    {
        var channel = new RecordingChannel();
        using var app = new ReceiverFactory(storage.Azurite.ConnectionString, "express",
                ("Receiver:Container", $"outbox-{Guid.NewGuid():N}"[..20]),
                ("ApplicationInsights:ConnectionString", "InstrumentationKey=00000000-0000-0000-0000-000000000001"))
            .WithWebHostBuilder(builder =>
                builder.ConfigureTestServices(services => services.AddSingleton<ITelemetryChannel>(channel)));
        var orders = TestOrders.Many(20);
        var (body, entryIds) = BulkRequest.RawPayload(orders, "q-order-express");

        var statuses = await BulkRequest.StatusesAsync(
            await app.CreateClient().PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));

        Assert.All(entryIds, id => Assert.Equal("SUCCESS", statuses[id]));
        await Eventually.TrueAsync(() => channel.Of<RequestTelemetry>().Any(r => r.Url.AbsolutePath ==
            "/q-order-express-bulk"), TimeSpan.FromSeconds(10));
        Assert.Empty(channel.Of<DependencyTelemetry>());
    }

    private sealed class RecordingChannel : ITelemetryChannel
    {
        private readonly List<ITelemetry> _items = [];

        public bool? DeveloperMode { get; set; }

        public string EndpointAddress { get; set; } = "";

        public List<T> Of<T>()
        {
            lock (_items)
            {
                return [.. _items.OfType<T>()];
            }
        }

        public void Send(ITelemetry item)
        {
            lock (_items)
            {
                _items.Add(item);
            }
        }

        public void Flush()
        {
        }

        public void Dispose()
        {
        }
    }
}
