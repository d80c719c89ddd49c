using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.Channel;
using Microsoft.ApplicationInsights.DataContracts;
using Microsoft.ApplicationInsights.Extensibility;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Time.Testing;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// What the receiver tells Application Insights it stored: the end of the cycle and the orders stored in
/// scripts/kql/cycle-time.kql, an event per interval rather than per request.
/// </summary>
public sealed class StoredOrdersTelemetryTests : IDisposable
{
    private readonly FakeTimeProvider _time = new(new DateTimeOffset(2026, 11, 27, 10, 0, 0, TimeSpan.Zero));
    private readonly RecordingChannel _channel = new();
    private readonly LogRecorder _logs = new();

    [Fact]
    public async Task A_request_counts_the_orders_it_stored_not_those_it_could_not()
    {
        var telemetry = Telemetry();
        var orders = Enumerable.Range(1, 20).Select(i => Inbound(i)).ToList();
        var progress = new RequestProgress(orders.Count);

        await Writer(telemetry, failing: 17).HandleAsync(orders, MessagingModel.PubSubBulk, progress, default);
        telemetry.Send();

        var stored = Assert.Single(_channel.Events());
        Assert.Equal(StoredOrdersTelemetry.EventName, stored.Name);
        Assert.Equal(19, stored.Metrics[StoredOrdersTelemetry.StoredCount]);
        Assert.Equal("pubsub-bulk", stored.Properties[StoredOrdersTelemetry.Model]);
        Assert.Equal(19, orders.Count(o => progress.IsDone(o.EntryId)));
    }

    [Fact]
    public async Task Requests_between_two_sends_make_one_event_stamped_when_the_last_of_them_stored()
    {
        var telemetry = Telemetry();
        var writer = Writer(telemetry, failing: 0);
        var first = _time.GetUtcNow();

        await writer.HandleAsync([Inbound(1)], MessagingModel.PubSubSingle, new RequestProgress(1), default);
        _time.Advance(TimeSpan.FromMilliseconds(400));
        await writer.HandleAsync([Inbound(2)], MessagingModel.PubSubSingle, new RequestProgress(1), default);
        _time.Advance(TimeSpan.FromMilliseconds(300));
        telemetry.Send();
        telemetry.Send();

        var stored = Assert.Single(_channel.Events());
        Assert.Equal(2, stored.Metrics[StoredOrdersTelemetry.StoredCount]);
        Assert.Equal(first.AddMilliseconds(400), stored.Timestamp);
    }

    [Fact]
    public async Task Orders_stored_under_two_models_are_counted_apart()
    {
        var telemetry = Telemetry();
        var writer = Writer(telemetry, failing: 0);

        await writer.HandleAsync([Inbound(1), Inbound(2)], MessagingModel.PubSubBulk, new RequestProgress(2), default);
        await writer.HandleAsync([Inbound(3)], MessagingModel.Bindings, new RequestProgress(1), default);
        telemetry.Send();

        var counts = _channel.Events().ToDictionary(
            e => e.Properties[StoredOrdersTelemetry.Model], e => e.Metrics[StoredOrdersTelemetry.StoredCount]);
        Assert.Equal(new Dictionary<string, double> { ["pubsub-bulk"] = 2, ["bindings"] = 1 }, counts);
    }

    [Fact]
    public async Task A_request_that_stored_nothing_sends_nothing_so_it_cannot_extend_the_cycle()
    {
        var telemetry = Telemetry();

        await Writer(telemetry, failing: 1)
            .HandleAsync([Inbound(1)], MessagingModel.PubSubSingle, new RequestProgress(1), default);
        telemetry.Send();

        Assert.Empty(_channel.Events());
    }

    [Fact]
    public async Task Running_it_sends_what_was_stored_each_interval_and_the_rest_when_it_stops_its_timer()
    {
        var telemetry = Telemetry();
        var writer = Writer(telemetry, failing: 0);
        await telemetry.StartAsync(default);

        await writer.HandleAsync([Inbound(1), Inbound(2)], MessagingModel.PubSubBulk, new RequestProgress(2), default);
        // The service makes its timer on a thread of its own: the clock moves until that timer has seen it move.
        var first = await EventuallyAsync(() =>
        {
            _time.Advance(StoredOrdersTelemetry.Interval);
            return _channel.Events() is [var only] ? only : null;
        });
        await writer.HandleAsync([Inbound(3)], MessagingModel.PubSubBulk, new RequestProgress(1), default);
        await telemetry.StopAsync(default);

        Assert.Equal(2, first.Metrics[StoredOrdersTelemetry.StoredCount]);
        Assert.Equal([2.0, 1.0], _channel.Events().Select(e => e.Metrics[StoredOrdersTelemetry.StoredCount]));
        Assert.True(telemetry.ExecuteTask is { IsCompleted: true }, "the timer's loop runs on after the stop");
    }

    private static async Task<T> EventuallyAsync<T>(Func<T?> read)
        where T : class
    {
        using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        T? value;
        while ((value = read()) is null)
        {
            await Task.Delay(10, deadline.Token);
        }

        return value;
    }

    [Fact]
    public async Task An_event_the_telemetry_sdk_fails_to_take_is_one_warning_and_the_stop_completes()
    {
        var telemetry = Telemetry();
        telemetry.Stored(3, MessagingModel.PubSubBulk);
        _channel.Failing = true;

        await telemetry.StopAsync(CancellationToken.None);

        var line = Assert.Single(_logs.AtLeast(LogLevel.Warning));
        Assert.Null(line.Exception);
        Assert.Contains("OrdersStored telemetry event was not sent (ObjectDisposedException", line.Message,
            StringComparison.Ordinal);
    }

    public void Dispose() => _channel.Dispose();

    private StoredOrdersTelemetry Telemetry()
    {
        var configuration = new TelemetryConfiguration
        {
            ConnectionString = "InstrumentationKey=00000000-0000-0000-0000-000000000001",
            TelemetryChannel = _channel,
        };
        return new StoredOrdersTelemetry(new TelemetryClient(configuration), _time,
            LoggerFactory.Create(builder => builder.AddProvider(_logs)).CreateLogger<StoredOrdersTelemetry>());
    }

    private static OrderWriter Writer(StoredOrdersTelemetry telemetry, long failing) =>
        new(new Store(failing), telemetry);

    private static InboundOrder Inbound(long id) =>
        new($"entry-{id}", new Order { OrderId = id, OrderGuid = Guid.NewGuid(), Delivery = Delivery.Express });

    private sealed class Store(long failing) : IOrderStore
    {
        public Task SaveAsync(Order order, CancellationToken cancellationToken) =>
            order.OrderId == failing ? Task.FromException(new IOException("storage refused it")) : Task.CompletedTask;
    }

    private sealed class RecordingChannel : ITelemetryChannel
    {
        private readonly List<ITelemetry> _items = [];

        public bool? DeveloperMode { get; set; }

        public string EndpointAddress { get; set; } = "";

        /// <summary>Fails as the SDK's channel may while the host stops it.</summary>
        public bool Failing { get; set; }

        public void Send(ITelemetry item)
        {
            ObjectDisposedException.ThrowIf(Failing, this);
            lock (_items)
            {
                _items.Add(item);
            }
        }

        public EventTelemetry[] Events()
        {
            lock (_items)
            {
                return [.. _items.OfType<EventTelemetry>()];
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
