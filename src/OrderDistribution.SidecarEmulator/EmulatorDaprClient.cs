using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using Castle.DynamicProxy;
using Dapr;
using Dapr.Client;
using Grpc.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.SidecarEmulator;

/// <summary>
/// A <see cref="DaprClient"/> over the sidecar emulator: it hands the calls the apps make with it (publish, bulk
/// publish, outbound health, metadata) to an <see cref="EmulatedSidecar"/> over the sidecar's HTTP API, and
/// reports each outcome the way the SDK reports it from a real sidecar: a bulk publish's named failures as
/// <c>FailedEntries</c> under the SDK's entry ids (the indexes of the events), any other refusal as a
/// <see cref="DaprException"/> around an <see cref="RpcException"/>, a cancelled call as cancellation.
/// </summary>
public static class EmulatorDaprClient
{
    /// <summary>
    /// Castle's proxies of the abstract DaprClient (some sixty members): only the calls the apps make are forwarded.
    /// </summary>
    private static readonly ProxyGenerator Proxies = new();

    /// <summary>Replaces the app's DaprClient with one over the sidecar emulator its Dapr settings point at.</summary>
    public static void UseSidecarEmulator(this IServiceCollection services) =>
        services.Replace(ServiceDescriptor.Singleton(provider =>
        {
            var sidecar = provider.GetRequiredService<SidecarOptions>();
            return Over(sidecar.HttpEndpoint, sidecar.ApiToken);
        }));

    /// <summary>
    /// The apps' own publishing (<see cref="SidecarExtensions.AddSidecarOutbound"/>) over the sidecar emulator at
    /// <paramref name="sidecar"/>, with any further settings.
    /// </summary>
    public static ServiceProvider Publishing(Uri sidecar, params (string Key, string Value)[] settings) =>
        Publishing(sidecar, logs: null, settings);

    /// <param name="logs">Gets every line the publishing logs, when given.</param>
    public static ServiceProvider Publishing(Uri sidecar, ILoggerProvider? logs,
        params (string Key, string Value)[] settings)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, (string?)s.Value))
                .Append(KeyValuePair.Create("DAPR_HTTP_ENDPOINT", (string?)sidecar.ToString())))
            .Build();
        var services = new ServiceCollection()
            .AddLogging(logging =>
            {
                if (logs is not null)
                {
                    logging.AddProvider(logs).SetMinimumLevel(LogLevel.Debug);
                }
            })
            .AddSingleton<IConfiguration>(configuration)
            .AddSidecarOutbound();
        services.UseSidecarEmulator();
        return services.BuildServiceProvider();
    }

    public static DaprClient Over(Uri sidecar, string? apiToken = null)
    {
        var http = new HttpClient { BaseAddress = sidecar, Timeout = Timeout.InfiniteTimeSpan };
        if (apiToken is not null)
        {
            http.DefaultRequestHeaders.Add("dapr-api-token", apiToken);
        }

        return Proxies.CreateClassProxy<DaprClient>(new Forwarder(http));
    }

    /// <summary>
    /// The emulator's accepting mode, with no server: a DaprClient that confirms every publish without sending it
    /// anywhere, and reports the sidecar healthy. What is left of a publish is the app's own work (the benchmark's
    /// distributor alone).
    /// </summary>
    public static DaprClient Accepting() => Proxies.CreateClassProxy<DaprClient>(new Acceptor());

    private sealed class Acceptor : IInterceptor
    {
        private static readonly Task<BulkPublishResponse<byte[]>> AllPublished =
            Task.FromResult(new BulkPublishResponse<byte[]>([]));

        public void Intercept(IInvocation invocation) =>
            invocation.ReturnValue = invocation.Method.Name switch
            {
                nameof(DaprClient.PublishByteEventAsync) => Task.CompletedTask,
                nameof(DaprClient.BulkPublishEventAsync) when invocation.Method.GetGenericArguments() is [var type]
                    && type == typeof(byte[]) => AllPublished,
                nameof(DaprClient.CheckOutboundHealthAsync) => Task.FromResult(true),
                nameof(DaprClient.GetMetadataAsync) =>
                    Task.FromResult(new DaprMetadata("sidecar-emulator", [], new Dictionary<string, string>(), [])),
                nameof(DaprClient.Dispose) => null,
                _ =>
                    throw new NotSupportedException($"The sidecar emulator does not serve " +
                        $"DaprClient.{invocation.Method.Name}."),
            };
    }

    private sealed class Forwarder(HttpClient http) : IInterceptor
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
                _ =>
                    throw new NotSupportedException($"The sidecar emulator does not serve " +
                        $"DaprClient.{invocation.Method.Name}."),
            };
        }
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
            throw Refused("Publish", status, body);
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
        var (status, body) =
            await PostAsync(http, $"v1.0-alpha1/publish/bulk/{pubSubName}/{topic}{Query(metadata)}", content,
                cancellationToken);
        var success = status is >= 200 and < 300;
        var named = FailedEntryIds(body);
        if ((success && body.Length == 0) || (named is not null && (success || named.Count > 0)))
        {
            var byId = entries.ToDictionary(e => e.EntryId);
            // As the SDK does: an entry id it did not send is a KeyNotFoundException.
            return new BulkPublishResponse<byte[]>((named ?? []).Select(f =>
                new BulkPublishResponseFailedEntry<byte[]>(byId[f.EntryId], f.Error)).ToList());
        }

        throw Refused("Bulk Publish", status, body);
    }

    private static async Task<DaprMetadata> MetadataAsync(HttpClient http, CancellationToken cancellationToken)
    {
        using var response = await http.GetAsync("v1.0/metadata", cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            throw Refused("Get Metadata", (int)response.StatusCode,
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

    /// <summary>
    /// The SDK's exception for an HTTP answer, under the gRPC status daprd gives the same refusal on its gRPC API (413
    /// is the gRPC server's own limit, "received message larger than max").
    /// </summary>
    private static DaprException Refused(string operation, int status, byte[] body) =>
        new($"{operation} operation failed: the Dapr endpoint indicated a failure. See InnerException for details.",
            new RpcException(new Status(GrpcStatusOf(status), $"{status} {Encoding.UTF8.GetString(body)}")));

    private static StatusCode GrpcStatusOf(int httpStatus) => httpStatus switch
    {
        400 or 404 => StatusCode.InvalidArgument,
        401 => StatusCode.Unauthenticated,
        403 => StatusCode.PermissionDenied,
        413 => StatusCode.ResourceExhausted,
        503 => StatusCode.Unavailable,
        504 => StatusCode.DeadlineExceeded,
        _ => StatusCode.Internal,
    };

    /// <returns>The entries the answer names; null when it is not the documented object.</returns>
    private static List<(string EntryId, string Error)>? FailedEntryIds(byte[] body)
    {
        try
        {
            using var document = JsonDocument.Parse(body);
            if (document.RootElement.ValueKind != JsonValueKind.Object
                || !document.RootElement.TryGetProperty("failedEntries", out var failed)
                    || failed.ValueKind != JsonValueKind.Array)
            {
                return null;
            }

            return failed.EnumerateArray()
                .Select(f =>
                    (f.GetProperty("entryId").GetString()!,
                        f.TryGetProperty("error", out var error) ? error.ToString() : "failed"))
                .ToList();
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or KeyNotFoundException)
        {
            return null;
        }
    }

    private static string Query(Dictionary<string, string>? metadata) =>
        metadata is { Count: > 0 } ? "?"
            + string.Join('&', metadata.Select(m => $"metadata.{m.Key}={Uri.EscapeDataString(m.Value)}")) : "";

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
