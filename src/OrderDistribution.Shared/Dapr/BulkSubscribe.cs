using System.Text.Json.Serialization;

namespace OrderDistribution.Dapr;

/// <summary>What the app answers for each entry of a bulk delivery.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<BulkEntryStatus>))]
public enum BulkEntryStatus
{
    SUCCESS,
    RETRY,
    DROP,
}

public sealed record BulkEntryResponse(
    [property: JsonPropertyName("entryId")] string EntryId,
    [property: JsonPropertyName("status")] BulkEntryStatus Status);

public sealed record BulkSubscribeResponse(
    [property: JsonPropertyName("statuses")] IReadOnlyList<BulkEntryResponse> Statuses);

/// <summary>The answer to a single (non-bulk) pub/sub delivery.</summary>
public sealed record SubscriptionResponse([property: JsonPropertyName("status")] BulkEntryStatus Status);
