using System.Buffers;
using System.Buffers.Text;
using System.Runtime.InteropServices;
using System.Text.Json;
using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// Turns one event, in any form the sidecar delivers it, into an order. The sidecar sends an order as
/// a JSON object (input bindings, bulk entries of JSON content), as a CloudEvent with <c>data</c> or
/// <c>data_base64</c>, or as a base64 string (raw payload on a broker that keeps no content type).
/// </summary>
public static class CloudEventDecoder
{
    /// <exception cref="InvalidOrderException">The event holds no valid order, whatever is wrong with it.</exception>
    public static Order Decode(JsonElement @event)
    {
        try
        {
            return DecodeAny(@event);
        }
        catch (Exception e)
            when (e is JsonException or InvalidOperationException or FormatException or ArgumentException)
        {
            // For example a string whose escapes are not valid UTF-16, which the reader refuses to hand over.
            throw new InvalidOrderException($"not an order: {e.Message}");
        }
    }

    /// <summary>
    /// The message as its publisher sent it, as far as the event shows it: the data of a CloudEvent, a base64 string
    /// decoded, anything else as its JSON text. Never throws: what cannot be decoded is kept as its JSON text.
    /// </summary>
    public static byte[] PayloadOf(JsonElement @event)
    {
        try
        {
            return @event.ValueKind switch
            {
                JsonValueKind.Object when IsCloudEvent(@event) => @event.TryGetProperty("data_base64", out var base64)
                    ? PayloadOf(base64)
                    : PayloadOf(@event.GetProperty("data")),
                JsonValueKind.String => @event.TryGetBytesFromBase64(out var bytes)
                    ? bytes
                    : System.Text.Encoding.UTF8.GetBytes(@event.GetString()!),
                JsonValueKind.Undefined => [],
                _ => System.Text.Encoding.UTF8.GetBytes(@event.GetRawText()),
            };
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException)
        {
            return System.Text.Encoding.UTF8.GetBytes(@event.GetRawText());
        }
    }

    private static Order DecodeAny(JsonElement @event) => @event.ValueKind switch
    {
        JsonValueKind.Object when IsCloudEvent(@event) => DecodeCloudEventData(@event),
        JsonValueKind.Object => OrderJson.Deserialize(@event),
        JsonValueKind.String => DecodeString(@event, orJsonText: true),
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
            return base64.ValueKind == JsonValueKind.String
                ? DecodeString(base64, orJsonText: false)
                : throw new InvalidOrderException("not an order: data_base64 is not base64");
        }

        return DecodeAny(cloudEvent.GetProperty("data"));
    }

    /// <summary>
    /// An order in a JSON string: base64, or with <paramref name="orJsonText"/> also a JSON document carried as text,
    /// which some brokers hand text payloads over as. The string is unescaped and decoded in a rented buffer: the
    /// order's bytes are needed only while it is read.
    /// </summary>
    private static Order DecodeString(JsonElement text, bool orJsonText)
    {
        var reader = new Utf8JsonReader(JsonMarshal.GetRawUtf8Value(text));
        reader.Read();
        var escapedLength = reader.ValueSpan.Length;
        var rented = ArrayPool<byte>.Shared.Rent(escapedLength + Base64.GetMaxDecodedFromUtf8Length(escapedLength));
        try
        {
            var unescaped = rented.AsSpan(0, reader.CopyString(rented));
            var decoded = rented.AsSpan(escapedLength);
            if (Base64.DecodeFromUtf8(unescaped, decoded, out _, out var decodedLength) == OperationStatus.Done)
            {
                return OrderJson.Deserialize(decoded[..decodedLength]);
            }

            return orJsonText
                ? OrderJson.Deserialize(unescaped)
                : throw new InvalidOrderException("not an order: data_base64 is not base64");
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
