using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace OrderDistribution.Dapr;

/// <summary>
/// <see cref="IDaprPublisher"/> over the sidecar's documented HTTP API (pub/sub and bindings), the
/// language-neutral way to use Dapr. The Dapr .NET SDK packages cannot be restored in this project's feed.
/// </summary>
public sealed class DaprHttpPublisher(HttpClient http) : IDaprPublisher
{
    private static readonly MediaTypeHeaderValue Json = new(DaprContentTypes.Json);

    public async Task<IReadOnlyList<FailedBulkEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<BulkPublishEntry> entries, int maxBulkPubBytes,
        CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(WriteBulkPublishBody(entries));
        content.Headers.ContentType = Json;
        using var response = await http.PostAsync(
            string.Create(CultureInfo.InvariantCulture,
                $"v1.0-alpha1/publish/bulk/{Uri.EscapeDataString(pubSubName)}/{Uri.EscapeDataString(topic)}" +
                $"?metadata.rawPayload=true&metadata.maxBulkPubBytes={maxBulkPubBytes}"),
            content, cancellationToken);
        var body = await response.Content.ReadAsByteArrayAsync(cancellationToken);
        return BulkPublishAnswer.FailedEntries(response.StatusCode, body, entries)
               ?? throw Refused(response.StatusCode, body, $"bulk publish to {topic}");
    }

    public Task PublishAsync(string pubSubName, string topic, byte[] payload, string contentType, CancellationToken cancellationToken) =>
        PostAsync(
            $"v1.0/publish/{Uri.EscapeDataString(pubSubName)}/{Uri.EscapeDataString(topic)}?metadata.rawPayload=true",
            payload, new MediaTypeHeaderValue(contentType), $"publish to {topic}", cancellationToken);

    public Task InvokeOutputBindingAsync(string bindingName, byte[] payload, string contentType, CancellationToken cancellationToken) =>
        PostAsync($"v1.0/bindings/{Uri.EscapeDataString(bindingName)}", WriteBindingBody(payload, contentType), Json,
            $"output binding {bindingName}", cancellationToken);

    private async Task PostAsync(string path, byte[] body, MediaTypeHeaderValue contentType, string what, CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(body);
        content.Headers.ContentType = contentType;
        using var response = await http.PostAsync(path, content, cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw Refused(response.StatusCode, await response.Content.ReadAsByteArrayAsync(cancellationToken), what);
        }
    }

    private static byte[] WriteBulkPublishBody(IReadOnlyList<BulkPublishEntry> entries)
    {
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartArray();
            foreach (var entry in entries)
            {
                json.WriteStartObject();
                json.WriteString("entryId", entry.EntryId);
                json.WritePropertyName("event");
                WritePayload(json, entry.Payload, entry.ContentType);
                json.WriteString("contentType", entry.ContentType);
                if (entry.Metadata is { Count: > 0 } metadata)
                {
                    json.WriteStartObject("metadata");
                    foreach (var (key, value) in metadata)
                    {
                        json.WriteString(key, value);
                    }

                    json.WriteEndObject();
                }

                json.WriteEndObject();
            }

            json.WriteEndArray();
        }

        return buffer.ToArray();
    }

    private static byte[] WriteBindingBody(byte[] payload, string contentType)
    {
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteString("operation", "create");
            json.WritePropertyName("data");
            WritePayload(json, payload, contentType);
            json.WriteEndObject();
        }

        return buffer.ToArray();
    }

    /// <summary>JSON goes in as it is; anything else as a string, which the sidecar hands on as its bytes.</summary>
    private static void WritePayload(Utf8JsonWriter json, byte[] payload, string contentType)
    {
        if (DaprContentTypes.IsJson(contentType))
        {
            json.WriteRawValue(payload, skipInputValidation: true);
        }
        else
        {
            json.WriteStringValue(Encoding.UTF8.GetString(payload));
        }
    }

    private static DaprPublishException Refused(HttpStatusCode status, byte[] body, string what) =>
        new($"The sidecar did not confirm {what}: {(int)status} {BulkPublishAnswer.Excerpt(body)}");
}

/// <summary>
/// Reads the sidecar's answer to a bulk publish without trusting more than it says. Dapr documents 204 for
/// "all published" and <c>{"failedEntries":[{"entryId","error"}],"errorCode"}</c> when some failed.
/// </summary>
public static class BulkPublishAnswer
{
    private const int ExcerptLength = 500;

    /// <returns>
    /// Empty when the answer confirms every entry; the entries it names as failed, among those sent, when it
    /// names any; null when it neither confirms nor names them, so that every entry may have failed.
    /// </returns>
    public static IReadOnlyList<FailedBulkEntry>? FailedEntries(
        HttpStatusCode status, byte[] body, IReadOnlyList<BulkPublishEntry> sent)
    {
        var success = (int)status is >= 200 and < 300;
        if (success && body.Length == 0)
        {
            return [];
        }

        var named = ReadFailedEntries(body);
        if (named is null)
        {
            return null;
        }

        var sentIds = sent.Select(e => e.EntryId).ToHashSet(StringComparer.Ordinal);
        var failed = named.Where(f => sentIds.Contains(f.EntryId)).DistinctBy(f => f.EntryId).ToList();
        return failed.Count > 0 || (success && named.Count == 0) ? failed : null;
    }

    public static string Excerpt(byte[] body)
    {
        var text = Encoding.UTF8.GetString(body, 0, Math.Min(body.Length, ExcerptLength * 4));
        return text.Length > ExcerptLength ? text[..ExcerptLength] + "…" : text;
    }

    /// <returns>The named entries; null when the body is not the documented object.</returns>
    private static List<FailedBulkEntry>? ReadFailedEntries(byte[] body)
    {
        try
        {
            using var document = JsonDocument.Parse(body);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                return null;
            }

            if (!document.RootElement.TryGetProperty("failedEntries", out var entries)
                || entries.ValueKind == JsonValueKind.Null)
            {
                return [];
            }

            if (entries.ValueKind != JsonValueKind.Array)
            {
                return null;
            }

            var failed = new List<FailedBulkEntry>();
            foreach (var entry in entries.EnumerateArray())
            {
                if (entry.ValueKind != JsonValueKind.Object
                    || !entry.TryGetProperty("entryId", out var id) || id.ValueKind != JsonValueKind.String)
                {
                    return null;
                }

                failed.Add(new FailedBulkEntry(
                    id.GetString()!,
                    entry.TryGetProperty("error", out var error) ? error.ToString() : "failed"));
            }

            return failed;
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or ArgumentException)
        {
            return null;
        }
    }
}
