using System.Diagnostics;
using System.Text.Json;
using OrderDistribution.Messaging;

namespace OrderDistribution.SidecarEmulator.Broker;

/// <summary>
/// <see cref="MessagingModel.PubSubBulk"/>: up to <see cref="EmulatedSidecarOptions.MaxMessagesCount"/> messages
/// gathered for at most <see cref="EmulatedSidecarOptions.MaxAwait"/>, delivered as one bulk request of base64
/// raw-payload entries under fresh entry ids. A 404 drops the whole request; an error status or no answer brings every
/// entry back; an entry the answer does not name is RETRY.
/// </summary>
internal sealed class BulkDelivery(
    EmulatedBroker broker, string queue, HttpClient app, QueueReport report, EmulatedSidecarOptions options,
    string? deadLetterTopic)
    : Delivery(broker, queue, app, report, deadLetterTopic)
{
    /// <summary>Gathers a batch from <paramref name="first"/> on, then delivers it as one request.</summary>
    protected override async Task DeliverAsync(EmulatedMessage first)
    {
        var batch = new List<EmulatedMessage>(options.MaxMessagesCount);
        var gatherUntil = Stopwatch.GetTimestamp() + (long)(options.MaxAwait.TotalSeconds * Stopwatch.Frequency);
        EmulatedMessage? message = first;
        while (batch.Count < options.MaxMessagesCount)
        {
            if (message is not null || Messages.TryRead(out message))
            {
                if (Broker.Take(Queue, message, Report))
                {
                    batch.Add(message);
                }

                message = null;
            }
            else if (Stopwatch.GetTimestamp() < gatherUntil)
            {
                await Task.Delay(5);
            }
            else
            {
                break;
            }
        }

        if (batch.Count > 0)
        {
            await DeliverBatchAsync(batch);
        }
    }

    protected override void Retry(EmulatedMessage message) => Broker.RetryOrPark(Queue, message, Report);

    private async Task DeliverBatchAsync(List<EmulatedMessage> batch)
    {
        var entries = batch.Select(m => (EntryId: Guid.NewGuid().ToString(), Message: m)).ToList();
        var body = JsonBytes.Write(json =>
        {
            json.WriteStartObject();
            json.WriteStartArray("entries");
            foreach (var (entryId, message) in entries)
            {
                json.WriteStartObject();
                json.WriteString("entryId", entryId);
                json.WriteBase64String("event", message.Payload);
                json.WriteNull("metadata");
                json.WriteString("contentType", "application/octet-stream");
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteString("id", Guid.NewGuid().ToString());
            json.WriteStartObject("metadata");
            json.WriteString("pubsubName", "order-pubsub");
            json.WriteEndObject();
            json.WriteString("pubsubname", "order-pubsub");
            json.WriteString("topic", Queue);
            json.WriteString("type", "com.dapr.event.sent.bulk");
            json.WriteEndObject();
        });
        var (status, answer) = await PostAsync($"/{Queue}-bulk", body, "application/json");
        if (status == 404)
        {
            entries.ForEach(e => Settle(e.Message, "DROP"));
            return;
        }

        if (status is not (>= 200 and < 300))
        {
            Report.RedeliverWhole();
            entries.ForEach(e => Settle(e.Message, "RETRY"));
            return;
        }

        var statuses = ReadStatuses(answer);
        entries.ForEach(e => Settle(e.Message, statuses.GetValueOrDefault(e.EntryId, "RETRY")));
    }

    private static Dictionary<string, string> ReadStatuses(string answer)
    {
        try
        {
            using var document = JsonDocument.Parse(answer);
            return document.RootElement.GetProperty("statuses").EnumerateArray()
                .ToDictionary(s => s.GetProperty("entryId").GetString()!, s => s.GetProperty("status").GetString()!);
        }
        catch (Exception e)
            when (e is JsonException or KeyNotFoundException or InvalidOperationException or ArgumentException)
        {
            return [];
        }
    }
}
