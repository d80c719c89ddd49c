using System.Diagnostics;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Output bindings through the sidecar's HTTP API (<c>POST /v1.0/bindings/{name}</c>), not the SDK's gRPC
/// <c>InvokeBinding</c>: daprd copies every incoming gRPC header of <c>InvokeBinding</c> into the binding's metadata,
/// which brokers write onto the message (<c>content-type: application/grpc</c>, <c>user-agent</c>,
/// <c>dapr-authority</c>, <c>dapr-grpc-accept-encoding</c>, on 1.14 even a blanked <c>dapr-api-token</c>;
/// <c>docs/dapr-sidecar.md</c>, "Measured on the current code"), on every runtime from 1.14 to the newest. The HTTP API
/// copies no header: the binding gets the request's metadata (here the order's content type) and the trace context of
/// daprd's span, which continues the <c>traceparent</c> sent here, a valid one or none (<c>docs/runtimes.md</c>).
/// </summary>
public sealed class SidecarOutputBindings(HttpClient http, SidecarOptions sidecar) : IOutputBindings
{
    public const string ApiTokenHeader = "dapr-api-token";

    public async Task CreateAsync(string bindingName, ReadOnlyMemory<byte> payload, CancellationToken cancellationToken)
    {
        var uri = new Uri(sidecar.HttpEndpoint, $"v1.0/bindings/{Uri.EscapeDataString(bindingName)}");
        var content = new ByteArrayContent(Body(payload));
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        using var request = new HttpRequestMessage(HttpMethod.Post, uri) { Content = content };
        if (sidecar.ApiToken is { } token)
        {
            request.Headers.Add(ApiTokenHeader, token);
        }

        if (TraceParent() is { } traceParent)
        {
            request.Headers.Add("traceparent", traceParent);
        }

        using var response = await http.SendAsync(request, HttpCompletionOption.ResponseContentRead, cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            var answer = await response.Content.ReadAsStringAsync(cancellationToken);
            throw new SidecarCallException(
                $"The sidecar did not confirm output binding {bindingName}: {(int)response.StatusCode} {answer}",
                new HttpRequestException($"{(int)response.StatusCode} {answer}", null, response.StatusCode));
        }
    }

    /// <summary>
    /// The body the HTTP API expects: the operation, the payload as <c>data</c> (JSON as it is; anything else as a JSON
    /// string, which daprd hands on as that string), and the order's content type.
    /// </summary>
    /// <remarks>daprd re-encodes <c>data</c>: keys come out sorted and numbers pass through a float64, exact for the
    /// order's values.</remarks>
    public static byte[] Body(ReadOnlyMemory<byte> payload)
    {
        var isJson = IsJson(payload.Span);
        using var buffer = new MemoryStream(payload.Length + 128);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("operation", "create");
            writer.WritePropertyName("data");
            if (isJson)
            {
                writer.WriteRawValue(payload.Span, skipInputValidation: true);
            }
            else
            {
                writer.WriteStringValue(Encoding.UTF8.GetString(payload.Span));
            }

            writer.WriteStartObject("metadata");
            writer.WriteString("contentType", isJson ? "application/json" : "text/plain");
            writer.WriteEndObject();
            writer.WriteEndObject();
        }

        return buffer.ToArray();
    }

    /// <summary>
    /// The current activity's W3C trace context; none when there is no valid one (never the all-zero id).
    /// </summary>
    public static string? TraceParent() =>
        Activity.Current is { IdFormat: ActivityIdFormat.W3C } activity && activity.TraceId != default
            && activity.SpanId != default
            ? activity.Id
            : null;

    private static bool IsJson(ReadOnlySpan<byte> payload)
    {
        if (payload.IsEmpty)
        {
            return false;
        }

        var reader = new Utf8JsonReader(payload);
        try
        {
            while (reader.Read())
            {
            }

            return true;
        }
        catch (JsonException)
        {
            return false;
        }
    }
}
