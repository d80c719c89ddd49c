using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.DataContracts;
using Microsoft.ApplicationInsights.Extensibility;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Inbound;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// What the receiver tells Application Insights it stored: the end of the cycle in scripts/kql/cycle-time.kql.
/// </summary>
public sealed class StoredOrdersTelemetryTests
{
    [Fact]
    public async Task A_request_sends_one_event_with_the_orders_it_stored_not_those_it_could_not()
    {
        var channel = new RecordingChannel();
        var writer = Writer(channel, failing: 17);
        var orders = Enumerable.Range(1, 20).Select(i => Inbound(i)).ToList();
        var progress = new RequestProgress(orders.Count);

        await writer.HandleAsync(orders, MessagingModel.PubSubBulk, progress, CancellationToken.None);

        var stored = Assert.Single(channel.Items.OfType<EventTelemetry>());
        Assert.Equal(StoredOrdersTelemetry.EventName, stored.Name);
        Assert.Equal(19, stored.Metrics[StoredOrdersTelemetry.StoredCount]);
        Assert.Equal("pubsub-bulk", stored.Properties[StoredOrdersTelemetry.Model]);
        Assert.Equal(19, orders.Count(o => progress.IsDone(o.EntryId)));
    }

    [Fact]
    public async Task A_request_that_stored_nothing_sends_nothing_so_it_cannot_extend_the_cycle()
    {
        var channel = new RecordingChannel();

        await Writer(channel, failing: 1)
            .HandleAsync([Inbound(1)], MessagingModel.PubSubSingle, new RequestProgress(1), CancellationToken.None);

        Assert.Empty(channel.Items);
    }

    private static OrderWriter Writer(RecordingChannel channel, long failing)
    {
        var configuration = new TelemetryConfiguration
        {
            ConnectionString = "InstrumentationKey=00000000-0000-0000-0000-000000000001",
            TelemetryChannel = channel,
        };
        return new OrderWriter(new Store(failing), new StoredOrdersTelemetry(new TelemetryClient(configuration)));
    }

    private static InboundOrder Inbound(long id) =>
        new($"entry-{id}", new Order { OrderId = id, OrderGuid = Guid.NewGuid(), Delivery = Delivery.Express });

    private sealed class Store(long failing) : IOrderStore
    {
        public Task SaveAsync(Order order, CancellationToken cancellationToken) =>
            order.OrderId == failing ? Task.FromException(new IOException("storage refused it")) : Task.CompletedTask;
    }

    private sealed class RecordingChannel : ITelemetryChannel
    {
        public List<ITelemetry> Items { get; } = [];

        public bool? DeveloperMode { get; set; }

        public string EndpointAddress { get; set; } = "";

        public void Send(ITelemetry item)
        {
            lock (Items)
            {
                Items.Add(item);
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
