using System.Text.Json;
using Dapr.AspNetCore;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// Reads a bulk request into the SDK's <see cref="BulkSubscribeMessage{TValue}"/> without failing on what the
/// sidecar (or anyone) may send: an entry id written as a number is taken as its text, an entry without a readable
/// id is left out (no status can name it), the same id twice is kept once, and an entry without an event is kept
/// with an undefined event, so that it is dropped by name.
/// </summary>
internal static class BulkSubscribeMessageReader
{
    /// <summary>
    /// The entries' metadata, which nothing here reads: one empty dictionary rather than one an entry.
    /// </summary>
    private static readonly Dictionary<string, string> NoMetadata = [];

    /// <summary>
    /// The entries' content type, which nothing here reads either (the decoder tells the forms apart itself).
    /// </summary>
    private const string NoContentType = "";

    /// <summary>The request's topic, which nothing here reads: the route names the queue.</summary>
    private const string NoTopic = "";

    /// <returns>The request; null when the body is no JSON object with an <c>entries</c> array.</returns>
    /// <param name="unanswerable">Told the position of each entry that has no readable id.</param>
    public static BulkSubscribeMessage<JsonElement>? Read(JsonDocument? body, Action<int> unanswerable)
    {
        if (body?.RootElement is not { ValueKind: JsonValueKind.Object } root
            || !root.TryGetProperty("entries", out var entries) || entries.ValueKind != JsonValueKind.Array)
        {
            return null;
        }

        var count = entries.GetArrayLength();
        var read = new List<BulkSubscribeMessageEntry<JsonElement>>(count);
        var seen = new HashSet<string>(count, StringComparer.Ordinal);
        var position = 0;
        foreach (var entry in entries.EnumerateArray())
        {
            var at = position++;
            if (EntryIdOf(entry) is not { } entryId)
            {
                unanswerable(at);
                continue;
            }

            if (seen.Add(entryId))
            {
                var @event = entry.ValueKind == JsonValueKind.Object && entry.TryGetProperty("event", out var value)
                    ? value
                    : default;
                read.Add(new BulkSubscribeMessageEntry<JsonElement>(entryId, NoContentType, NoMetadata, @event));
            }
        }

        return new BulkSubscribeMessage<JsonElement>(read, NoTopic, NoMetadata);
    }

    /// <returns>The entry's id as the sidecar wrote it (a number as its text); null when it has none to answer
    /// under.</returns>
    private static string? EntryIdOf(JsonElement entry)
    {
        if (entry.ValueKind != JsonValueKind.Object || !entry.TryGetProperty("entryId", out var id))
        {
            return null;
        }

        return id.ValueKind switch
        {
            JsonValueKind.String => TextOf(id) is { Length: > 0 } text ? text : null,
            JsonValueKind.Number => id.GetRawText(),
            _ => null,
        };
    }

    private static string? TextOf(JsonElement text)
    {
        try
        {
            return text.GetString();
        }
        catch (InvalidOperationException)
        {
            return null; // escapes that are no valid UTF-16
        }
    }
}
