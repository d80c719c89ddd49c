using System.Text.Json;
using Dapr.Client;
using NSubstitute;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// Stands in for sidecars and broker at no cost of their own, behind the distributor's DaprClient: a bulk publish
/// to a topic is delivered at once to that topic's receiver as bulk deliveries of base64 entries, as Service Bus
/// and Redis deliver raw payloads. Entries the receiver answers RETRY are reported failed.
/// </summary>
public static class ForwardingSidecar
{
    public static DaprClient To(IReadOnlyDictionary<string, HttpClient> receivers, int maxMessagesCount)
    {
        var dapr = Substitute.For<DaprClient>();
        dapr.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default).ReturnsForAnyArgs(call =>
            ForwardAsync(receivers, maxMessagesCount, call.ArgAt<string>(0), call.ArgAt<string>(1), call.ArgAt<IReadOnlyList<byte[]>>(2),
                call.ArgAt<CancellationToken>(4)));
        return dapr;
    }

    /// <summary>Takes every publish at no cost: what is left is the distributor's own work.</summary>
    public static DaprClient Null()
    {
        var dapr = Substitute.For<DaprClient>();
        dapr.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default)
            .ReturnsForAnyArgs(Task.FromResult(new BulkPublishResponse<byte[]>([])));
        return dapr;
    }

    private static async Task<BulkPublishResponse<byte[]>> ForwardAsync(
        IReadOnlyDictionary<string, HttpClient> receivers, int maxMessagesCount, string pubSubName, string topic,
        IReadOnlyList<byte[]> events, CancellationToken cancellationToken)
    {
        var entries = events.Select((payload, i) => new BulkPublishEntry<byte[]>(
            i.ToString(System.Globalization.CultureInfo.InvariantCulture), payload, "application/octet-stream")).ToList();
        var failed = new List<BulkPublishResponseFailedEntry<byte[]>>();
        foreach (var batch in entries.Chunk(maxMessagesCount))
        {
            using var content = new ReadOnlyMemoryContent(BulkDeliveryBody(topic, pubSubName, batch));
            content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
            var response = await receivers[topic].PostAsync($"/{topic}-bulk", content, cancellationToken);
            response.EnsureSuccessStatusCode();
            var statuses = await BulkDelivery.StatusesAsync(response);
            failed.AddRange(batch.Where(e => statuses[e.EntryId] != "SUCCESS")
                .Select(e => new BulkPublishResponseFailedEntry<byte[]>(e, statuses[e.EntryId])));
        }

        return new BulkPublishResponse<byte[]>(failed);
    }

    /// <summary>The bulk delivery a sidecar sends for raw payloads, written straight to bytes: the harness's own cost stays small.</summary>
    private static ReadOnlyMemory<byte> BulkDeliveryBody(string topic, string pubSubName, BulkPublishEntry<byte[]>[] batch)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>(batch.Sum(e => e.EventData.Length * 4 / 3 + 128) + 256);
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteStartArray("entries");
            foreach (var entry in batch)
            {
                json.WriteStartObject();
                json.WriteString("entryId", entry.EntryId);
                json.WriteBase64String("event", entry.EventData);
                json.WriteString("contentType", entry.ContentType);
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteString("topic", topic);
            json.WriteString("pubsubname", pubSubName);
            json.WriteString("type", "com.dapr.event.sent.bulk");
            json.WriteEndObject();
        }

        return buffer.WrittenMemory;
    }
}
