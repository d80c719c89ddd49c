using System.Net;
using Dapr;
using Grpc.Core;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>How the apps read a failed call to the sidecar (<c>docs/runtimes.md</c>, "Failures").</summary>
public static class SidecarFailure
{
    /// <summary>
    /// Words of a refusal that is about an order's size, in the sidecar's gRPC limit and in brokers' own answers. Made
    /// per call (failures are rare), not held in a static field, so that each mutation test run reads its own.
    /// </summary>
    private static string[] SizeRefusals =>
        ["larger than max", "too large", "too big", "messagesizeexceeded", "message size exceeded",
            "exceeds the maximum"];

    /// <summary>
    /// Words of a refusal that is about the request's content (the order), not about the sidecar's configuration.
    /// </summary>
    private static string[] ContentRefusals =>
        ["malformed", "cloudevent", "unmarshal", "deserializ", "invalid json", "invalid character"];

    /// <summary>
    /// A failure the apps answer for by the order's status rather than by failing the request: the sidecar's or the
    /// broker's answer (a bulk publish's entries named as failed too), a broken connection, an attempt's timeout, an
    /// open circuit. The caller's own cancellation is not one.
    /// </summary>
    public static bool IsExpected(Exception exception, CancellationToken cancellationToken) =>
        IsSidecarFailure(exception)
        || exception is BulkPublishPartlyFailedException or Polly.CircuitBreaker.BrokenCircuitException
        || (exception is OperationCanceledException && !cancellationToken.IsCancellationRequested);

    /// <summary>What the failure says about the order: see <see cref="SidecarFailureKind"/>.</summary>
    public static SidecarFailureKind Classify(Exception exception) =>
        RpcStatusOf(exception) is { } rpc ? Classify(rpc.StatusCode, rpc.Detail)
        : HttpStatusOf(exception) is { } http ? Classify(http.StatusCode, http.Detail)
        : SidecarFailureKind.Transient;

    /// <summary>
    /// A failed entry of a bulk publish: its size refused for good, anything else the broker's moment.
    /// </summary>
    public static SidecarFailureKind ClassifyEntryError(string error) =>
        Mentions(error, SizeRefusals) ? SidecarFailureKind.RejectsOrder : SidecarFailureKind.Transient;

    /// <summary>
    /// Counts toward the sidecar's circuit breaker and is retried by its pipeline: a transient failure of the sidecar
    /// or its broker, or a bulk publish whose broker refused some entries (one failure per call, however many entries).
    /// A failure about one order or about the configuration says nothing about the sidecar's health.
    /// </summary>
    public static bool CountsAgainstSidecar(Exception exception) =>
        exception is BulkPublishPartlyFailedException
        || (IsSidecarFailure(exception) && Classify(exception) == SidecarFailureKind.Transient);

    /// <summary>
    /// Why a call failed, in one line: the sidecar's gRPC status and detail where the SDK wraps them (its own message
    /// only says to look inside), else the exception's message.
    /// </summary>
    public static string Reason(Exception exception) => RpcStatusOf(exception) is { } rpc
        ? $"{rpc.StatusCode}: {rpc.Detail}"
        : exception.Message;

    /// <summary>What the sidecar's own health is judged by: its answers and its reachability.</summary>
    public static bool IsSidecarFailure(Exception exception) =>
        exception is DaprException or RpcException or SidecarCallException or HttpRequestException
            or Polly.Timeout.TimeoutRejectedException;

    private static SidecarFailureKind Classify(StatusCode status, string detail) => status switch
    {
        StatusCode.Unauthenticated or StatusCode.PermissionDenied or StatusCode.NotFound
            or StatusCode.FailedPrecondition or StatusCode.Unimplemented => SidecarFailureKind.RejectsEveryOrder,
        // The sidecar answers a pub/sub it does not have, an empty name or a duplicate entry id with InvalidArgument
        // too: only a refusal that names the content is about the order; any other would refuse every order alike.
        StatusCode.InvalidArgument => ByContent(detail),
        StatusCode.ResourceExhausted =>
            Mentions(detail, SizeRefusals) ? SidecarFailureKind.RejectsOrder : SidecarFailureKind.Transient,
        _ => ClassifyByText(detail),
    };

    private static SidecarFailureKind Classify(HttpStatusCode status, string detail) => (int)status switch
    {
        401 or 403 or 404 => SidecarFailureKind.RejectsEveryOrder,
        413 => SidecarFailureKind.RejectsOrder,
        400 => ByContent(detail),
        _ => ClassifyByText(detail),
    };

    /// <summary>
    /// Internal and Unknown (HTTP 500) carry both: the sidecar answers an output binding it does not have with
    /// "couldn't find output binding", and a broker's refusal of a message's size comes through as its own words.
    /// </summary>
    private static SidecarFailureKind ClassifyByText(string detail) =>
        detail.Contains("couldn't find output binding", StringComparison.OrdinalIgnoreCase)
            ? SidecarFailureKind.RejectsEveryOrder
        : Mentions(detail, SizeRefusals) ? SidecarFailureKind.RejectsOrder
        : SidecarFailureKind.Transient;

    private static SidecarFailureKind ByContent(string detail) =>
        Mentions(detail, ContentRefusals) || Mentions(detail, SizeRefusals)
            ? SidecarFailureKind.RejectsOrder
            : SidecarFailureKind.RejectsEveryOrder;

    private static bool Mentions(string text, string[] words) =>
        words.Any(word => text.Contains(word, StringComparison.OrdinalIgnoreCase));

    private static (StatusCode StatusCode, string Detail)? RpcStatusOf(Exception exception) => exception switch
    {
        RpcException rpc => (rpc.StatusCode, rpc.Status.Detail),
        { InnerException: RpcException rpc } => (rpc.StatusCode, rpc.Status.Detail),
        _ => null,
    };

    private static (HttpStatusCode StatusCode, string Detail)? HttpStatusOf(Exception exception) => exception switch
    {
        HttpRequestException { StatusCode: { } status } http => (status, http.Message),
        { InnerException: HttpRequestException { StatusCode: { } status } http } => (status, http.Message),
        _ => null,
    };
}
