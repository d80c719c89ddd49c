using System.Text;
using System.Text.Json;
using OrderDistribution.Contracts;

namespace OrderDistribution.TestSupport;

/// <summary>Builds bulk deliveries in the form the sidecar sends with rawPayload: base64 events.</summary>
public static class BulkRequest
{
    public static (string Body, List<string> EntryIds) RawPayload(IEnumerable<Order> orders, string topic)
    {
        var entries = orders.Select(o => new
        {
            entryId = Guid.NewGuid().ToString(),
            @event = Convert.ToBase64String(OrderJson.Serialize(o)),
            metadata = (object?)null,
            contentType = "application/octet-stream",
        }).ToList();
        var body = JsonSerializer.Serialize(new
        {
            entries,
            id = Guid.NewGuid().ToString(),
            metadata = new { pubsubName = "order-pubsub" },
            pubsubname = "order-pubsub",
            topic,
            type = "com.dapr.event.sent.bulk",
        });
        return (body, entries.Select(e => e.entryId).ToList());
    }

    public static StringContent Json(string body) => new(body, Encoding.UTF8, "application/json");

    /// <summary>The status of an answer to one message (the single route's).</summary>
    public static async Task<string> StatusAsync(HttpResponseMessage response)
    {
        using var document = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return document.RootElement.GetProperty("status").GetString()!;
    }

    /// <summary>entryId → status from a bulk answer.</summary>
    public static async Task<Dictionary<string, string>> StatusesAsync(HttpResponseMessage response)
    {
        using var document = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return document.RootElement.GetProperty("statuses").EnumerateArray()
            .ToDictionary(s => s.GetProperty("entryId").GetString()!, s => s.GetProperty("status").GetString()!);
    }
}
