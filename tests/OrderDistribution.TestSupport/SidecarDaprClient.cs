using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using Dapr;
using Dapr.Client;
using Grpc.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using NSubstitute;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.TestSupport;

/// <summary>
/// A <see cref="DaprClient"/> that hands the calls the apps make (publish, bulk publish, output binding, outbound
/// health) to a sidecar double over the sidecar's HTTP API (<see cref="FakeDaprSidecar"/>, <see cref="DaprDouble"/>),
/// and reports each outcome the way the SDK reports it from a real sidecar: a bulk publish's named failures as
/// <c>FailedEntries</c> under the SDK's entry ids (the indexes of the events), any other refusal as a
/// <see cref="DaprException"/> around an <see cref="RpcException"/>, a cancelled call as cancellation.
/// </summary>
public static class SidecarDaprClient
{
    /// <summary>Replaces the app's DaprClient with one over the sidecar double its Dapr settings point at.</summary>
    public static void UseSidecarDouble(this IServiceCollection services) =>
        services.Replace(ServiceDescriptor.Singleton(provider =>
        {
            var sidecar = provider.GetRequiredService<DaprSidecarOptions>();
            return Over(sidecar.HttpEndpoint, sidecar.ApiToken);
        }));

    /// <summary>
    /// The apps' own publishing (<see cref="DaprPublishingExtensions.AddDaprPublishing"/>) over the sidecar double at
    /// <paramref name="sidecar"/>, with any further settings.
    /// </summary>
    public static ServiceProvider Publishing(Uri sidecar, params (string Key, string Value)[] settings)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, (string?)s.Value))
                .Append(KeyValuePair.Create("DAPR_HTTP_ENDPOINT", (string?)sidecar.ToString())))
            .Build();
        var services = new ServiceCollection().AddLogging().AddDaprPublishing(configuration);
        services.UseSidecarDouble();
        return services.BuildServiceProvider();
    }

    public static DaprClient Over(Uri sidecar, string? apiToken = null)
    {
        var http = new HttpClient { BaseAddress = sidecar, Timeout = Timeout.InfiniteTimeSpan };
        if (apiToken is not null)
        {
            http.DefaultRequestHeaders.Add("dapr-api-token", apiToken);
        }

        var dapr = Substitute.For<DaprClient>();
        dapr.PublishByteEventAsync(default!, default!, default, default!, default, default).ReturnsForAnyArgs(call =>
            PublishAsync(http, call.ArgAt<string>(0), call.ArgAt<string>(1), call.ArgAt<ReadOnlyMemory<byte>>(2),
                call.ArgAt<string>(3), call.ArgAt<Dictionary<string, string>?>(4), call.ArgAt<CancellationToken>(5)));
        dapr.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default).ReturnsForAnyArgs(call =>
            BulkPublishAsync(http, call.ArgAt<string>(0), call.ArgAt<string>(1), call.ArgAt<IReadOnlyList<byte[]>>(2),
                call.ArgAt<Dictionary<string, string>?>(3), call.ArgAt<CancellationToken>(4)));
        dapr.InvokeBindingAsync(default(BindingRequest)!, default).ReturnsForAnyArgs(call =>
            InvokeBindingAsync(http, call.ArgAt<BindingRequest>(0), call.ArgAt<CancellationToken>(1)));
        dapr.CheckOutboundHealthAsync(default).ReturnsForAnyArgs(call => OutboundHealthyAsync(http, call.ArgAt<CancellationToken>(0)));
        return dapr;
    }

    private static async Task PublishAsync(
        HttpClient http, string pubSubName, string topic, ReadOnlyMemory<byte> data, string contentType,
        Dictionary<string, string>? metadata, CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(data.ToArray());
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        var (status, body) = await PostAsync(http, $"v1.0/publish/{pubSubName}/{topic}{Query(metadata)}", content, cancellationToken);
        if (status is < 200 or >= 300)
        {
            throw Refused("Publish", status, body);
        }
    }

    private static async Task<BulkPublishResponse<byte[]>> BulkPublishAsync(
        HttpClient http, string pubSubName, string topic, IReadOnlyList<byte[]> events, Dictionary<string, string>? metadata,
        CancellationToken cancellationToken)
    {
        var entries = events.Select((payload, i) => new BulkPublishEntry<byte[]>(
            i.ToString(System.Globalization.CultureInfo.InvariantCulture), payload, "application/octet-stream", metadata)).ToList();
        using var content = new ByteArrayContent(Json(writer =>
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
        }));
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        var (status, body) = await PostAsync(http, $"v1.0-alpha1/publish/bulk/{pubSubName}/{topic}{Query(metadata)}", content, cancellationToken);
        var success = status is >= 200 and < 300;
        var named = FailedEntryIds(body);
        if ((success && body.Length == 0) || (named is not null && (success || named.Count > 0)))
        {
            var byId = entries.ToDictionary(e => e.EntryId);
            // As the SDK does: an entry id it did not send is a KeyNotFoundException.
            return new BulkPublishResponse<byte[]>((named ?? []).Select(f => new BulkPublishResponseFailedEntry<byte[]>(byId[f.EntryId], f.Error)).ToList());
        }

        throw Refused("Bulk Publish", status, body);
    }

    private static async Task<BindingResponse> InvokeBindingAsync(HttpClient http, BindingRequest request, CancellationToken cancellationToken)
    {
        using var content = new ByteArrayContent(Json(writer =>
        {
            writer.WriteStartObject();
            writer.WriteString("operation", request.Operation);
            writer.WritePropertyName("data");
            WritePayload(writer, request.Data.ToArray());
            writer.WriteEndObject();
        }));
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        var (status, body) = await PostAsync(http, $"v1.0/bindings/{request.BindingName}", content, cancellationToken);
        return status is >= 200 and < 300
            ? new BindingResponse(request, body, new Dictionary<string, string>())
            : throw Refused("Binding", status, body);
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

    private static async Task<(int Status, byte[] Body)> PostAsync(HttpClient http, string path, HttpContent content, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await http.PostAsync(path, content, cancellationToken);
            return ((int)response.StatusCode, await response.Content.ReadAsByteArrayAsync(cancellationToken));
        }
        catch (HttpRequestException e)
        {
            throw new DaprException("the Dapr endpoint is not reachable", new RpcException(new Status(StatusCode.Unavailable, e.Message)));
        }
    }

    private static DaprException Refused(string operation, int status, byte[] body) =>
        new($"{operation} operation failed: the Dapr endpoint indicated a failure. See InnerException for details.",
            new RpcException(new Status(StatusCode.Internal, $"{status} {Encoding.UTF8.GetString(body)}")));

    /// <returns>The entries the answer names; null when it is not the documented object.</returns>
    private static List<(string EntryId, string Error)>? FailedEntryIds(byte[] body)
    {
        try
        {
            using var document = JsonDocument.Parse(body);
            if (document.RootElement.ValueKind != JsonValueKind.Object
                || !document.RootElement.TryGetProperty("failedEntries", out var failed) || failed.ValueKind != JsonValueKind.Array)
            {
                return null;
            }

            return failed.EnumerateArray()
                .Select(f => (f.GetProperty("entryId").GetString()!, f.TryGetProperty("error", out var error) ? error.ToString() : "failed"))
                .ToList();
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or KeyNotFoundException)
        {
            return null;
        }
    }

    private static string Query(Dictionary<string, string>? metadata) =>
        metadata is { Count: > 0 } ? "?" + string.Join('&', metadata.Select(m => $"metadata.{m.Key}={Uri.EscapeDataString(m.Value)}")) : "";

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

    private static byte[] Json(Action<Utf8JsonWriter> write)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            write(writer);
        }

        return buffer.ToArray();
    }
}
