using Microsoft.ApplicationInsights;
using OrderDistribution.Messaging;

namespace OrderDistribution.Receiver;

/// <summary>
/// One telemetry event per request that stored orders, sent when its last order is stored: scripts/kql/cycle-time.kql
/// ends the cycle at the last of them. A request ends later (the answer follows the stores), and it is
/// answered 200 even when every entry is RETRY or DROP, so the requests alone end at the last answer, not the last
/// store. Per request, not per order, and no log line.
/// </summary>
public sealed class StoredOrdersTelemetry(TelemetryClient client)
{
    public const string EventName = "OrdersStored";
    public const string StoredCount = "StoredCount";
    public const string Model = "Model";

    public void Stored(int count, MessagingModel model)
    {
        if (count == 0)
        {
            return;
        }

        client.TrackEvent(
            EventName,
            new Dictionary<string, string> { [Model] = model.Text() },
            new Dictionary<string, double> { [StoredCount] = count });
    }
}
