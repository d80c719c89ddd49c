using Microsoft.ApplicationInsights;
using Microsoft.ApplicationInsights.DataContracts;
using OrderDistribution.Messaging;

namespace OrderDistribution.Receiver;

/// <summary>
/// The receiver's "OrdersStored" telemetry event, which scripts/kql/cycle-time.kql ends the cycle at (the last of them)
/// and counts the stored orders by (StoredCount). One event per second in which requests stored orders, stamped with
/// the time the last of them was stored, not one per request: in single and bindings a request is an order, and an
/// event per order is billed per order (docs/benchmark.md, "Telemetry items and bytes per order").
/// A request ends later than its stores and is answered 200 even when every entry is RETRY or DROP, so the requests
/// alone would end the cycle at the last answer, not the last store. No log line.
/// </summary>
public sealed partial class StoredOrdersTelemetry(
    TelemetryClient client, TimeProvider time, ILogger<StoredOrdersTelemetry> logger) : BackgroundService
{
    public const string EventName = "OrdersStored";
    public const string StoredCount = "StoredCount";
    public const string Model = "Model";

    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    private readonly Lock _lock = new();
    private readonly Dictionary<MessagingModel, (int Count, DateTimeOffset Last)> _pending = [];

    public void Stored(int count, MessagingModel model)
    {
        if (count == 0)
        {
            return;
        }

        var now = time.GetUtcNow();
        lock (_lock)
        {
            // Two requests may take the lock in the other order than they read the clock: the later time stays.
            _pending[model] = _pending.TryGetValue(model, out var pending)
                ? (pending.Count + count, pending.Last > now ? pending.Last : now)
                : (count, now);
        }
    }

    /// <summary>Sends what was stored since the last call, an event per model; nothing when nothing was.</summary>
    public void Send()
    {
        List<KeyValuePair<MessagingModel, (int Count, DateTimeOffset Last)>> sending;
        lock (_lock)
        {
            if (_pending.Count == 0)
            {
                return;
            }

            sending = [.. _pending];
            _pending.Clear();
        }

        try
        {
            foreach (var (model, (count, last)) in sending)
            {
                var stored = new EventTelemetry(EventName) { Timestamp = last };
                stored.Properties[Model] = model.Text();
                stored.Metrics[StoredCount] = count;
                client.TrackEvent(stored);
            }
        }
        catch (Exception e) when (e is not OutOfMemoryException)
        {
            // The telemetry SDK can fail while the host stops it; a lost event must not stop the app or its stop.
            LogNotSent(logger, e.GetType().Name, e.Message);
        }
    }

    [LoggerMessage(LogLevel.Warning, "The OrdersStored telemetry event was not sent ({Type}: {Reason})")]
    private static partial void LogNotSent(ILogger logger, string type, string reason);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(Interval, time);
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                Send();
            }
        }
        catch (OperationCanceledException)
        {
            // Stopping: StopAsync sends the rest.
        }
    }

    // Hosted services stop after the server has answered its last request, so this sends the last stores.
    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        Send();
    }
}
