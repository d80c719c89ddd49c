using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;

namespace OrderDistribution.Dapr;

/// <summary>
/// <see cref="IDaprPublisher"/> over the sidecar's documented HTTP API (pub/sub and bindings), the
/// language-neutral way to use Dapr. The Dapr .NET SDK packages cannot be restored in this project's feed.
/// </summary>
public sealed class DaprHttpPublisher(HttpClient http) : IDaprPublisher
{
    private static readonly MediaTypeHeaderValue Json = new("application/json");

    public async Task<IReadOnlyList<FailedBulkEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<BulkPublishEntry> entries, CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(WriteBulkPublishBody(entries));
        content.Headers.ContentType = Json;
        using var response = await http.PostAsync(
            $"v1.0-alpha1/publish/bulk/{Uri.EscapeDataString(pubSubName)}/{Uri.EscapeDataString(topic)}?metadata.rawPayload=true",
            content, cancellationToken);

        if (response.IsSuccessStatusCode)
        {
            return [];
        }

        var body = await response.Content.ReadAsByteArrayAsync(cancellationToken);
        return ReadFailedEntries(body) is { Count: > 0 } failed
            ? failed
            : throw Refused(response.StatusCode, body, $"bulk publish to {topic}");
    }

    public Task PublishAsync(string pubSubName, string topic, byte[] payload, CancellationToken cancellationToken) =>
        PostAsync(
            $"v1.0/publish/{Uri.EscapeDataString(pubSubName)}/{Uri.EscapeDataString(topic)}?metadata.rawPayload=true",
            payload, $"publish to {topic}", cancellationToken);

    public Task InvokeOutputBindingAsync(string bindingName, byte[] payload, CancellationToken cancellationToken) =>
        PostAsync($"v1.0/bindings/{Uri.EscapeDataString(bindingName)}", WriteBindingBody(payload),
            $"output binding {bindingName}", cancellationToken);

    private async Task PostAsync(string path, byte[] body, string what, CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(body);
        content.Headers.ContentType = Json;
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
                json.WriteRawValue(entry.Payload, skipInputValidation: true);
                json.WriteString("contentType", "application/json");
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

    private static byte[] WriteBindingBody(byte[] payload)
    {
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteString("operation", "create");
            json.WritePropertyName("data");
            json.WriteRawValue(payload, skipInputValidation: true);
            json.WriteEndObject();
        }

        return buffer.ToArray();
    }

    /// <summary>The sidecar answers a partly failed bulk publish with <c>{"failedEntries":[{"entryId","error"}]}</c>.</summary>
    private static List<FailedBulkEntry> ReadFailedEntries(byte[] body)
    {
        try
        {
            using var document = JsonDocument.Parse(body);
            if (!document.RootElement.TryGetProperty("failedEntries", out var entries)
                || entries.ValueKind != JsonValueKind.Array)
            {
                return [];
            }

            return entries.EnumerateArray()
                .Where(e => e.TryGetProperty("entryId", out var id) && id.ValueKind == JsonValueKind.String)
                .Select(e => new FailedBulkEntry(
                    e.GetProperty("entryId").GetString()!,
                    e.TryGetProperty("error", out var error) ? error.ToString() : "failed"))
                .ToList();
        }
        catch (JsonException)
        {
            return [];
        }
    }

    private static DaprPublishException Refused(HttpStatusCode status, byte[] body, string what) =>
        new($"The sidecar refused {what}: {(int)status} {System.Text.Encoding.UTF8.GetString(body)}");
}
