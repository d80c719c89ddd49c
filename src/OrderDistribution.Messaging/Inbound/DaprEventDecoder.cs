using System.Text;
using System.Text.Json;
using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// Turns one event, in any form the sidecar delivers it, into an order. The sidecar sends an order as
/// a JSON object (input bindings, bulk entries of JSON content), as a CloudEvent with <c>data</c> or
/// <c>data_base64</c>, or as a base64 string (raw payload on a broker that keeps no content type).
/// </summary>
public static class DaprEventDecoder
{
    /// <exception cref="InvalidOrderException">The event holds no valid order, whatever is wrong with it.</exception>
    public static Order Decode(JsonElement @event)
    {
        try
        {
            return DecodeAny(@event);
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or FormatException or ArgumentException)
        {
            // For example a string whose escapes are not valid UTF-16, which the reader refuses to hand over.
            throw new InvalidOrderException($"not an order: {e.Message}");
        }
    }

    private static Order DecodeAny(JsonElement @event) => @event.ValueKind switch
    {
        JsonValueKind.Object when IsCloudEvent(@event) => DecodeCloudEventData(@event),
        JsonValueKind.Object => OrderJson.Deserialize(@event),
        JsonValueKind.String => DecodeString(@event),
        JsonValueKind.Undefined => throw new InvalidOrderException("the entry has no event"),
        _ => throw new InvalidOrderException($"not an order: the event is a JSON {@event.ValueKind}"),
    };

    private static bool IsCloudEvent(JsonElement @event) =>
        @event.TryGetProperty("specversion", out _)
        && (@event.TryGetProperty("data", out _) || @event.TryGetProperty("data_base64", out _));

    private static Order DecodeCloudEventData(JsonElement cloudEvent)
    {
        if (cloudEvent.TryGetProperty("data_base64", out var base64))
        {
            return base64.ValueKind == JsonValueKind.String && base64.TryGetBytesFromBase64(out var bytes)
                ? OrderJson.Deserialize(bytes)
                : throw new InvalidOrderException("not an order: data_base64 is not base64");
        }

        return DecodeAny(cloudEvent.GetProperty("data"));
    }

    private static Order DecodeString(JsonElement text)
    {
        if (text.TryGetBytesFromBase64(out var bytes))
        {
            return OrderJson.Deserialize(bytes);
        }

        // A JSON document carried as a string: some brokers hand text payloads over this way.
        return OrderJson.Deserialize(Encoding.UTF8.GetBytes(text.GetString()!));
    }
}
