using System.Net;
using Microsoft.WindowsAzure.Storage;

namespace OrderDistribution.Storage;

/// <summary>Which storage failures are worth another try.</summary>
public static class StorageFailure
{
    /// <summary>
    /// No answer (status 0: refused, reset, timed out), a timeout, throttling, a server error, or a container
    /// that is still being deleted: storage is unwell, and a retry may work.
    /// </summary>
    public static bool IsTransient(Exception exception) => exception switch
    {
        StorageException { InnerException: OperationCanceledException } => false,
        StorageException storage => storage.RequestInformation?.HttpStatusCode is var status
                                    && (status is 0 or (int)HttpStatusCode.RequestTimeout or 429 or >= 500
                                        || IsContainerBeingDeleted(storage)),
        HttpRequestException or IOException or Polly.Timeout.TimeoutRejectedException => true,
        _ => false,
    };

    public static bool IsContainerNotFound(Exception exception) =>
        exception is StorageException { RequestInformation: { HttpStatusCode: 404, ErrorCode: "ContainerNotFound" } };

    private static bool IsContainerBeingDeleted(StorageException exception) =>
        exception.RequestInformation is { HttpStatusCode: 409, ErrorCode: "ContainerBeingDeleted" };
}
