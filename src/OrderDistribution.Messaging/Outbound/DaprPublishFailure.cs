using Dapr;
using Grpc.Core;

namespace OrderDistribution.Messaging.Outbound;

public static class DaprPublishFailure
{
    /// <summary>
    /// A failure of the sidecar or the broker behind it, worth a retry: a refusal, a broken connection, a
    /// timeout or an open circuit. The caller's own cancellation is not one.
    /// </summary>
    public static bool IsTransient(Exception exception, CancellationToken cancellationToken) =>
        IsSidecarFailure(exception) || exception is Polly.CircuitBreaker.BrokenCircuitException
        || (exception is OperationCanceledException && !cancellationToken.IsCancellationRequested);

    /// <summary>
    /// Why a call failed, in one line: the sidecar's gRPC status and detail where the SDK wraps them (its own message
    /// only says to look inside), else the exception's message.
    /// </summary>
    public static string Reason(Exception exception) => exception is DaprException { InnerException: RpcException rpc }
        ? $"{rpc.StatusCode}: {rpc.Status.Detail}"
        : exception.Message;

    /// <summary>What the sidecar's own health is judged by: its answers and its reachability.</summary>
    public static bool IsSidecarFailure(Exception exception) =>
        exception is DaprException or RpcException or DaprPublishException or HttpRequestException or Polly.Timeout.TimeoutRejectedException;
}
