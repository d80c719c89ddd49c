using System.Globalization;
using Azure;
using Azure.Storage.Blobs.Models;

namespace OrderDistribution.Storage;

/// <summary>Which storage failures are worth another try, and how to name one in a line.</summary>
public static class StorageFailure
{
    /// <summary>
    /// No answer (status 0: refused, reset), a timeout, throttling, a server error, or a container that is still
    /// being deleted: storage is unwell, and a retry may work. The caller's own cancellation is none of these.
    /// </summary>
    public static bool IsTransient(Exception exception) => exception switch
    {
        RequestFailedException failed => failed.Status is 0 or 408 or 429 or >= 500 || IsContainerBeingDeleted(failed),
        HttpRequestException or IOException or TimeoutException or Polly.Timeout.TimeoutRejectedException => true,
        _ => false,
    };

    /// <summary>
    /// The SDK reports its own network timeout as a cancellation the caller never asked for (catch it with
    /// <c>when (!callersToken.IsCancellationRequested)</c>); named as what it is, it is a transient failure.
    /// </summary>
    public static TimeoutException NoAnswer(OperationCanceledException sdkTimeout) =>
        new($"no answer in time ({FirstLine(sdkTimeout.Message)})", sdkTimeout);

    public static bool IsContainerNotFound(Exception exception) =>
        exception is RequestFailedException { Status: 404 } failed
        && failed.ErrorCode == BlobErrorCode.ContainerNotFound;

    /// <summary>Azure keeps a deleted container's name blocked for a while (about 30 s); Azurite does not.</summary>
    public static bool IsContainerBeingDeleted(Exception exception) =>
        exception is RequestFailedException { Status: 409 } failed
        && failed.ErrorCode == BlobErrorCode.ContainerBeingDeleted;

    /// <summary>
    /// The SDK's message runs over many lines (request id, time, headers, the response body); logs and readiness
    /// want one: the status, the error code and the service's first line.
    /// </summary>
    public static RequestFailedException OnOneLine(RequestFailedException failed)
    {
        var text = FirstLine(failed.Message);
        var line = failed.Status == 0
            ? $"no answer: {text}"
            : string.Create(CultureInfo.InvariantCulture, $"{failed.Status} {failed.ErrorCode}: {text}");
        return new RequestFailedException(failed.Status, line, failed.ErrorCode, failed);
    }

    private static string FirstLine(string text)
    {
        var line = text.AsSpan().Trim();
        var end = line.IndexOfAny('\r', '\n');
        return (end < 0 ? line : line[..end]).ToString();
    }
}
