using System.Text.Json.Serialization;

namespace OrderDistribution.Dapr;

/// <summary>One entry of the app's answer to <c>GET /dapr/subscribe</c>.</summary>
public sealed record DaprSubscription(
    [property: JsonPropertyName("pubsubname")] string PubSubName,
    [property: JsonPropertyName("topic")] string Topic,
    [property: JsonPropertyName("route")] string Route,
    [property: JsonPropertyName("metadata")] IReadOnlyDictionary<string, string> Metadata,
    [property: JsonPropertyName("bulkSubscribe"), JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    DaprBulkSubscribe? BulkSubscribe);

public sealed record DaprBulkSubscribe(
    [property: JsonPropertyName("enabled")] bool Enabled,
    [property: JsonPropertyName("maxMessagesCount")] int MaxMessagesCount,
    [property: JsonPropertyName("maxAwaitDurationMs")] int MaxAwaitDurationMs);
