using System.Text.Json;
using OrderDistribution.Messaging;

namespace OrderDistribution.SidecarEmulator.Broker;

/// <summary>
/// <see cref="MessagingModel.PubSubSingle"/>: one CloudEvent per request, the raw payload as <c>data_base64</c>. A 404
/// drops it; a 2xx is SUCCESS unless its body names another status; anything else is RETRY.
/// </summary>
internal sealed class SingleDelivery(
    EmulatedBroker broker, string queue, HttpClient app, QueueReport report, string? deadLetterTopic)
    : Delivery(broker, queue, app, report, deadLetterTopic)
{
    protected override async Task DeliverAsync(EmulatedMessage message)
    {
        if (!Broker.Take(Queue, message, Report, RetriesOutliveContext))
        {
            return;
        }

        var body = JsonBytes.Write(json =>
        {
            json.WriteStartObject();
            json.WriteBase64String("data_base64", message.Payload);
            json.WriteString("datacontenttype", "application/octet-stream");
            json.WriteString("id", Guid.NewGuid().ToString());
            json.WriteString("pubsubname", "order-pubsub");
            json.WriteString("source", "Dapr");
            json.WriteString("specversion", "1.0");
            json.WriteString("topic", Queue);
            json.WriteString("type", "com.dapr.event.sent");
            json.WriteEndObject();
        });
        var (status, answer) = await PostAsync($"/{Queue}-single", body, "application/cloudevents+json");
        var outcome = status switch
        {
            404 => "DROP",
            >= 200 and < 300 when string.IsNullOrWhiteSpace(answer) => "SUCCESS",
            >= 200 and < 300 => ReadStatus(answer),
            _ => "RETRY",
        };
        Settle(message, outcome);
    }

    protected override void Retry(EmulatedMessage message) =>
        Broker.RetryOrPark(Queue, message, Report, RetriesOutliveContext);

    /// <summary>Before 1.18.5 a single delivery's retries ran on a context of their own, which never ended.</summary>
    private bool RetriesOutliveContext => !Broker.Runtime.EndsSingleRetriesWithContext;

    private static string ReadStatus(string answer)
    {
        try
        {
            using var document = JsonDocument.Parse(answer);
            return document.RootElement.GetProperty("status").GetString() ?? "RETRY";
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException)
        {
            return "RETRY";
        }
    }
}
