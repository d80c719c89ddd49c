using System.Diagnostics;

namespace OrderDistribution.TestSupport;

/// <summary>What a consumer must never find on a broker message: a transport header of the call or a secret.</summary>
public static class BrokerMessageHeaders
{
    /// <returns>The keys of <paramref name="metadata"/> that must not reach a message, with their values.</returns>
    public static IReadOnlyList<string> Forbidden(IReadOnlyDictionary<string, string> metadata) =>
        metadata
            .Where(m =>
                (m.Key.Equals("content-type", StringComparison.OrdinalIgnoreCase)
                && m.Value.StartsWith("application/grpc", StringComparison.OrdinalIgnoreCase))
                        || m.Key.Equals("user-agent", StringComparison.OrdinalIgnoreCase)
                        || m.Key.StartsWith("dapr-", StringComparison.OrdinalIgnoreCase)
                        || m.Key.Equals("authorization", StringComparison.OrdinalIgnoreCase)
                        || (m.Key.Equals("traceparent", StringComparison.OrdinalIgnoreCase)
                            && !IsValidTraceParent(m.Value)))
            .Select(m => $"{m.Key}: {m.Value}")
            .ToList();

    /// <summary>A W3C trace context with a trace and a span of their own (all zeros is invalid).</summary>
    public static bool IsValidTraceParent(string value) =>
        ActivityContext.TryParse(value, null, out var context) && context.TraceId != default
            && context.SpanId != default;
}
