using System.Net.Http.Headers;
using System.Text.Json;
using Castle.DynamicProxy;
using Dapr;
using Dapr.Client;
using Grpc.Core;

namespace OrderDistribution.SidecarEmulator.Client;

/// <summary>
/// The DaprClient calls the apps make, each sent to the emulator's sidecar HTTP API (<see cref="EmulatedSidecar"/>),
/// its outcome reported as the SDK reports a real sidecar's (<see cref="SidecarRefusal"/>).
/// </summary>
internal sealed class ForwardingInterceptor(HttpClient http) : IInterceptor
{
    public void Intercept(IInvocation invocation)
    {
        var a = invocation.Arguments;
        invocation.ReturnValue = invocation.Method.Name switch
        {
            nameof(DaprClient.PublishByteEventAsync) =>
                PublishAsync(http, (string)a[0], (string)a[1], (ReadOnlyMemory<byte>)a[2], (string)a[3],
                    (Dictionary<string, string>?)a[4], (CancellationToken)a[5]),
            nameof(DaprClient.BulkPublishEventAsync) when invocation.Method.GetGenericArguments() is [var type]
                && type == typeof(byte[]) =>
                BulkPublishAsync(http, (string)a[0], (string)a[1], (IReadOnlyList<byte[]>)a[2],
                    (Dictionary<string, string>?)a[3], (CancellationToken)a[4]),
            nameof(DaprClient.CheckOutboundHealthAsync) => OutboundHealthyAsync(http, (CancellationToken)a[0]),
            nameof(DaprClient.GetMetadataAsync) => MetadataAsync(http, (CancellationToken)a[0]),
            nameof(DaprClient.Dispose) => null,
            _ => throw EmulatorDaprClient.NotServed(invocation),
        };
    }

    private static async Task PublishAsync(
        HttpClient http, string pubSubName, string topic, ReadOnlyMemory<byte> data, string contentType,
        Dictionary<string, string>? metadata, CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(data.ToArray());
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        var (status, body) =
            await PostAsync(http, $"v1.0/publish/{pubSubName}/{topic}{Query(metadata)}", content, cancellationToken);
        if (status is < 200 or >= 300)
        {
            throw SidecarRefusal.Of("Publish", status, body);
        }
    }

    private static async Task<BulkPublishResponse<byte[]>> BulkPublishAsync(
        HttpClient http, string pubSubName, string topic, IReadOnlyList<byte[]> events,
            Dictionary<string, string>? metadata,
        CancellationToken cancellationToken)
    {
        var entries = events.Select((payload, i) => new BulkPublishEntry<byte[]>(
            i.ToString(System.Globalization.CultureInfo.InvariantCulture), payload, "application/octet-stream",
                metadata)).ToList();
        using var content = new ReadOnlyMemoryContent(BulkPublishBody.Write(entries, metadata));
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        var (status, body) =
            await PostAsync(http, $"v1.0-alpha1/publish/bulk/{pubSubName}/{topic}{Query(metadata)}", content,
                cancellationToken);
        var success = status is >= 200 and < 300;
        var named = SidecarRefusal.FailedEntries(body);
        if ((success && body.Length == 0) || (named is not null && (success || named.Count > 0)))
        {
            var byId = entries.ToDictionary(e => e.EntryId);
            // As the SDK does: an entry id it did not send is a KeyNotFoundException.
            return new BulkPublishResponse<byte[]>((named ?? []).Select(f =>
                new BulkPublishResponseFailedEntry<byte[]>(byId[f.EntryId], f.Error)).ToList());
        }

        throw SidecarRefusal.Of("Bulk Publish", status, body);
    }

    private static async Task<DaprMetadata> MetadataAsync(HttpClient http, CancellationToken cancellationToken)
    {
        using var response = await http.GetAsync("v1.0/metadata", cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw SidecarRefusal.Of("Get Metadata", (int)response.StatusCode,
                await response.Content.ReadAsByteArrayAsync(cancellationToken));
        }

        using var metadata =
            await JsonDocument.ParseAsync(await response.Content.ReadAsStreamAsync(cancellationToken),
                cancellationToken: cancellationToken);
        return new DaprMetadata(metadata.RootElement.GetProperty("id").GetString() ?? "", [],
            new Dictionary<string, string>(), []);
    }

    private static async Task<bool> OutboundHealthyAsync(HttpClient http, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await http.GetAsync("v1.0/healthz/outbound", cancellationToken);
            return response.IsSuccessStatusCode;
        }
        catch (HttpRequestException)
        {
            return false;
        }
    }

    private static async Task<(int Status, byte[] Body)> PostAsync(HttpClient http, string path, HttpContent content,
        CancellationToken cancellationToken)
    {
        try
        {
            using var response = await http.PostAsync(path, content, cancellationToken);
            return ((int)response.StatusCode, await response.Content.ReadAsByteArrayAsync(cancellationToken));
        }
        catch (HttpRequestException e)
        {
            throw new DaprException("the Dapr endpoint is not reachable",
                new RpcException(new Status(StatusCode.Unavailable, e.Message)));
        }
    }

    private static string Query(Dictionary<string, string>? metadata) =>
        metadata is { Count: > 0 } ? "?"
            + string.Join('&', metadata.Select(m => $"metadata.{m.Key}={Uri.EscapeDataString(m.Value)}")) : "";
}
