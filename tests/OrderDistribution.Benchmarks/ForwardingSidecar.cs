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
            var body = JsonSerializer.Serialize(new
            {
                entries = batch.Select(e => new
                {
                    entryId = e.EntryId,
                    @event = Convert.ToBase64String(e.EventData),
                    metadata = (object?)null,
                    contentType = e.ContentType,
                }),
                topic,
                pubsubname = pubSubName,
                type = "com.dapr.event.sent.bulk",
            });
            var response = await receivers[topic].PostAsync($"/{topic}-bulk", BulkDelivery.Json(body), cancellationToken);
            response.EnsureSuccessStatusCode();
            var statuses = await BulkDelivery.StatusesAsync(response);
            failed.AddRange(batch.Where(e => statuses[e.EntryId] != "SUCCESS")
                .Select(e => new BulkPublishResponseFailedEntry<byte[]>(e, statuses[e.EntryId])));
        }

        return new BulkPublishResponse<byte[]>(failed);
    }
}
