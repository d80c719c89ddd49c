using System.Diagnostics;

namespace OrderDistribution.SidecarEmulator;

/// <summary>
/// How one Dapr runtime turns an output binding call into the binding's metadata, which brokers write onto the message
/// (<c>bindings.rabbitmq</c> as message headers, Service Bus as application properties). Read in dapr/dapr
/// (<c>pkg/api/grpc/grpc.go</c> InvokeBinding, <c>pkg/api/http/http.go</c> onOutputBindingMessage) and measured on
/// daprd 1.14.0 and 1.16.4 (<c>docs/dapr-sidecar.md</c>, "Measured on the current code"):
/// <list type="bullet">
/// <item>gRPC <c>InvokeBinding</c>, every runtime: the request's metadata, then every incoming gRPC header but binary
/// ones, <c>:authority</c> as <c>dapr-authority</c> and <c>grpc-*</c> as <c>dapr-grpc-*</c>, without overwriting the
/// request's keys (but <c>traceparent</c>); <c>traceparent</c> from its span even when there is none (all zeros).
/// The API token: 1.14 leaves it blanked (<c>dapr-api-token: ""</c>), 1.15 and later remove it.</item>
/// <item>HTTP <c>/v1.0/bindings/{name}</c>, every runtime: the body's metadata only, no header; <c>traceparent</c>
/// from its span, which continues a valid incoming <c>traceparent</c>, and none without one (tracing off); the newest
/// sources also copy the <c>baggage</c> header.</item>
/// </list>
/// And what its Redis pub/sub component does with a message whose delivery failed once the inbound retries are spent
/// (docs/dapr-sidecar.md, "pubsub.redis after its retries are spent"; docs/runtimes.md): up to 1.16 the message stays
/// pending and is handed out again after <c>processingTimeout</c>; from 1.17 it is acknowledged, gone, unless the
/// delivery's context had already ended (<see cref="AcknowledgesSpentRetries"/>). And from 1.19 the component keeps
/// the messages it holds alive in Redis, unless <c>entryKeepAliveInterval</c> is 0 (<see
/// cref="KeepsHeldEntriesAlive"/>; docs/runtimes.md, "pubsub.redis's entryKeepAliveInterval"), and a single
/// delivery's inbound retries end with its context, as the bulk ones always did (<see
/// cref="EndsSingleRetriesWithContext"/>, from 1.18.5; before, they ran on beside the copies Redis handed out again).
/// The 1.17 profile stands for 1.17 to 1.18.4.
/// </summary>
public sealed record DaprRuntimeProfile(string Version, bool KeepsBlankedApiToken, bool CopiesBaggage,
    bool AcknowledgesSpentRetries, bool KeepsHeldEntriesAlive = false, bool EndsSingleRetriesWithContext = false)
{
    public static readonly DaprRuntimeProfile Dapr114 =
        new("1.14", KeepsBlankedApiToken: true, CopiesBaggage: false, AcknowledgesSpentRetries: false);
    public static readonly DaprRuntimeProfile Dapr115 =
        new("1.15", KeepsBlankedApiToken: false, CopiesBaggage: false, AcknowledgesSpentRetries: false);
    public static readonly DaprRuntimeProfile Dapr116 =
        new("1.16", KeepsBlankedApiToken: false, CopiesBaggage: false, AcknowledgesSpentRetries: false);
    public static readonly DaprRuntimeProfile Dapr117 =
        new("1.17", KeepsBlankedApiToken: false, CopiesBaggage: true, AcknowledgesSpentRetries: true);
    public static readonly DaprRuntimeProfile Dapr119 = new("1.19", KeepsBlankedApiToken: false, CopiesBaggage: true,
        AcknowledgesSpentRetries: true, KeepsHeldEntriesAlive: true, EndsSingleRetriesWithContext: true);

    public static readonly IReadOnlyList<DaprRuntimeProfile> All = [Dapr114, Dapr115, Dapr116, Dapr117, Dapr119];

    /// <summary>The profile of a runtime by its version (<c>1.14</c> to <c>1.17</c>, <c>1.19</c>).</summary>
    public static DaprRuntimeProfile Of(string version) =>
        All.SingleOrDefault(r => r.Version == version)
        ?? throw new ArgumentException($"No runtime profile for Dapr {version} (there are {string.Join(", ", All)}).",
            nameof(version));

    private const string AllZeroTraceParent = "00-00000000000000000000000000000000-0000000000000000-00";

    /// <summary>Headers gRPC's server keeps out of the call's metadata (grpc-go's reserved headers).</summary>
    private static readonly HashSet<string> ReservedGrpcHeaders = new(StringComparer.OrdinalIgnoreCase)
    {
        "te", "grpc-timeout", "grpc-encoding", "grpc-message", "grpc-status", "grpc-message-type",
            "grpc-status-details-bin", "host",
    };

    public override string ToString() => Version;

    /// <summary>
    /// Whether the Redis component keeps the messages it holds alive with its <c>entryKeepAliveInterval</c> (null when
    /// none is given: the runtime's default); 0 turns it off.
    /// </summary>
    public bool KeepsHeldEntriesAliveWith(TimeSpan? entryKeepAliveInterval) =>
        KeepsHeldEntriesAlive && entryKeepAliveInterval != TimeSpan.Zero;

    /// <param name="headers">The HTTP/2 headers of the gRPC call, names in lower case.</param>
    public IReadOnlyDictionary<string, string> GrpcBindingMetadata(
        IReadOnlyDictionary<string, string> requestMetadata, IReadOnlyDictionary<string, string> headers)
    {
        var metadata = new Dictionary<string, string>(requestMetadata, StringComparer.Ordinal);
        metadata.TryAdd("traceparent", AllZeroTraceParent);
        var incoming = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var (name, value) in headers)
        {
            var key = name.ToLowerInvariant();
            if (key == "host")
            {
                incoming[":authority"] = value;
            }
            else if (!ReservedGrpcHeaders.Contains(key))
            {
                incoming[key] = value;
            }
        }

        if (incoming.ContainsKey("dapr-api-token"))
        {
            if (KeepsBlankedApiToken)
            {
                incoming["dapr-api-token"] = "";
            }
            else
            {
                incoming.Remove("dapr-api-token");
            }
        }

        foreach (var (key, value) in incoming)
        {
            if (key.EndsWith("-bin", StringComparison.Ordinal))
            {
                continue;
            }

            var sanitized = key == ":authority" ? "dapr-authority" : key.StartsWith("grpc-", StringComparison.Ordinal)
                ? "dapr-" + key : key;
            if (!metadata.ContainsKey(sanitized) || key is "traceparent" or "tracestate")
            {
                metadata[sanitized] = value;
            }
        }

        return metadata;
    }

    /// <param name="headers">The HTTP request's headers, names in any case.</param>
    public IReadOnlyDictionary<string, string> HttpBindingMetadata(
        IReadOnlyDictionary<string, string> bodyMetadata, IReadOnlyDictionary<string, string> headers)
    {
        var metadata = new Dictionary<string, string>(bodyMetadata, StringComparer.Ordinal);
        var byName = new Dictionary<string, string>(headers, StringComparer.OrdinalIgnoreCase);
        if (byName.TryGetValue("traceparent", out var parent) && ActivityContext.TryParse(parent, null, out var context)
            && context.TraceId != default && context.SpanId != default)
        {
            // daprd's span is a child of the caller's: same trace, a span of its own.
            var span = ActivitySpanId.CreateRandom().ToHexString();
            metadata["traceparent"] = $"00-{context.TraceId.ToHexString()}-{span}-{(byte)context.TraceFlags:x2}";
        }

        if (CopiesBaggage && byName.TryGetValue("baggage", out var baggage))
        {
            metadata["baggage"] = baggage;
        }

        return metadata;
    }
}
