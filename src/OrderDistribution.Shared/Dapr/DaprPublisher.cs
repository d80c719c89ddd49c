namespace OrderDistribution.Dapr;

/// <summary>
/// One message of a bulk publish: the order's JSON, the id its outcome is reported under, and metadata
/// the broker's component reads per message (Azure Service Bus: <c>ScheduledEnqueueTimeUtc</c>).
/// </summary>
public sealed record BulkPublishEntry(string EntryId, byte[] Payload, IReadOnlyDictionary<string, string>? Metadata = null);

public sealed record FailedBulkEntry(string EntryId, string Error);

/// <summary>
/// The sidecar calls the apps make: publish raw JSON to a topic, in bulk or one at a time, or hand it to
/// an output binding. Every payload goes out as is (raw payload), never wrapped in a CloudEvent.
/// </summary>
public interface IDaprPublisher
{
    /// <returns>The entries the sidecar reports as failed; empty when all were published.</returns>
    /// <exception cref="DaprPublishException">The sidecar refused the whole request.</exception>
    Task<IReadOnlyList<FailedBulkEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<BulkPublishEntry> entries, CancellationToken cancellationToken);

    /// <exception cref="DaprPublishException">The message was not published.</exception>
    Task PublishAsync(string pubSubName, string topic, byte[] payload, CancellationToken cancellationToken);

    /// <exception cref="DaprPublishException">The binding did not take the message.</exception>
    Task InvokeOutputBindingAsync(string bindingName, byte[] payload, CancellationToken cancellationToken);
}

public sealed class DaprPublishException(string message, Exception? inner = null) : Exception(message, inner);

public static class DaprPublishFailure
{
    /// <summary>
    /// A failure of the sidecar or the broker behind it, worth a retry: a refusal, a broken connection or a
    /// timeout. The caller's own cancellation is not one.
    /// </summary>
    public static bool IsTransient(Exception exception, CancellationToken cancellationToken) =>
        exception is DaprPublishException or HttpRequestException
        || (exception is TaskCanceledException && !cancellationToken.IsCancellationRequested);
}
