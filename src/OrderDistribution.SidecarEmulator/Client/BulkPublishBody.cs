using System.Text;
using System.Text.Json;
using Dapr.Client;

namespace OrderDistribution.SidecarEmulator.Client;

/// <summary>A bulk publish's request body as the sidecar's HTTP API takes it: one entry per event, in order.</summary>
internal static class BulkPublishBody
{
    public static ReadOnlyMemory<byte> Write(
        IReadOnlyList<BulkPublishEntry<byte[]>> entries, Dictionary<string, string>? metadata) =>
        JsonBytes.Write(writer =>
        {
            writer.WriteStartArray();
            foreach (var entry in entries)
            {
                writer.WriteStartObject();
                writer.WriteString("entryId", entry.EntryId);
                writer.WritePropertyName("event");
                WritePayload(writer, entry.EventData);
                writer.WriteString("contentType", entry.ContentType);
                WriteMetadata(writer, metadata);
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
        });

    /// <summary>JSON goes in as it is; anything else as a string, which the sidecar hands on as its bytes.</summary>
    private static void WritePayload(Utf8JsonWriter writer, byte[] payload)
    {
        try
        {
            using var document = JsonDocument.Parse(payload);
            document.RootElement.WriteTo(writer);
        }
        catch (JsonException)
        {
            writer.WriteStringValue(Encoding.UTF8.GetString(payload));
        }
    }

    private static void WriteMetadata(Utf8JsonWriter writer, Dictionary<string, string>? metadata)
    {
        if (metadata is { Count: > 0 })
        {
            writer.WriteStartObject("metadata");
            foreach (var (key, value) in metadata)
            {
                writer.WriteString(key, value);
            }

            writer.WriteEndObject();
        }
    }
}
