using System.Globalization;
using Azure;
using Azure.Storage.Blobs.Models;

namespace OrderDistribution.Storage;

/// <summary>Which storage failures are worth another try, and how to name one in a line.</summary>
public static class StorageFailure
{
    /// <summary>
    /// No answer (status 0: refused, reset; or the SDK's network timeout), a timeout, throttling, a server error,
    /// or a container that is still being deleted: storage is unwell, and a retry may work. The caller's own
    /// cancellation is none of these.
    /// </summary>
    public static bool IsTransient(Exception exception) => exception switch
    {
        RequestFailedException failed => failed.Status is 0 or 408 or 429 or >= 500 || IsContainerBeingDeleted(failed),
        // The SDK's network timeout is a cancellation carrying a TimeoutException; the caller's carries none.
        OperationCanceledException { InnerException: TimeoutException } => true,
        HttpRequestException or IOException or Polly.Timeout.TimeoutRejectedException => true,
        _ => false,
    };

    public static bool IsContainerNotFound(Exception exception) =>
        exception is RequestFailedException { Status: 404 } failed && failed.ErrorCode == BlobErrorCode.ContainerNotFound;

    /// <summary>Azure keeps a deleted container's name blocked for a while (about 30 s); Azurite does not.</summary>
    public static bool IsContainerBeingDeleted(Exception exception) =>
        exception is RequestFailedException { Status: 409 } failed && failed.ErrorCode == BlobErrorCode.ContainerBeingDeleted;

    /// <summary>
    /// The SDK's message runs over many lines (request id, time, headers, the response body); logs and readiness
    /// want one: the status, the error code and the service's first line.
    /// </summary>
    public static RequestFailedException OnOneLine(RequestFailedException failed)
    {
        var firstLine = failed.Message.AsSpan().Trim();
        var end = firstLine.IndexOfAny('\r', '\n');
        var text = (end < 0 ? firstLine : firstLine[..end]).ToString();
        var line = failed.Status == 0
            ? $"no answer: {text}"
            : string.Create(CultureInfo.InvariantCulture, $"{failed.Status} {failed.ErrorCode}: {text}");
        return new RequestFailedException(failed.Status, line, failed.ErrorCode, failed);
    }
}
