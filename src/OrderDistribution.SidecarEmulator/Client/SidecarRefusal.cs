using System.Text;
using System.Text.Json;
using Dapr;
using Grpc.Core;

namespace OrderDistribution.SidecarEmulator.Client;

/// <summary>
/// A sidecar's answer as the SDK reports it: the entries a bulk publish names as failed, or its exception.
/// </summary>
internal static class SidecarRefusal
{
    /// <summary>
    /// The SDK's exception for an HTTP answer, under the gRPC status daprd gives the same refusal on its gRPC API (413
    /// is the gRPC server's own limit, "received message larger than max").
    /// </summary>
    public static DaprException Of(string operation, int status, byte[] body) =>
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
    public static List<(string EntryId, string Error)>? FailedEntries(byte[] body)
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
}
