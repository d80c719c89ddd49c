namespace OrderDistribution.Dapr;

public static class DaprContentTypes
{
    public const string Json = "application/json";

    public static bool IsJson(string contentType) =>
        contentType.StartsWith(Json, StringComparison.OrdinalIgnoreCase)
        || contentType.Split(';')[0].EndsWith("+json", StringComparison.OrdinalIgnoreCase);
}

/// <summary>
/// One message of a bulk publish: the payload, the id its outcome is reported under, metadata the broker's
/// component reads per message (Azure Service Bus: <c>ScheduledEnqueueTimeUtc</c>), and the payload's
/// content type. A payload that is not JSON goes to the sidecar as a string.
/// </summary>
public sealed record BulkPublishEntry(
    string EntryId,
    byte[] Payload,
    IReadOnlyDictionary<string, string>? Metadata = null,
    string ContentType = DaprContentTypes.Json);

public sealed record FailedBulkEntry(string EntryId, string Error);

/// <summary>
/// The sidecar calls the apps make: publish to a topic, in bulk or one at a time, or hand a message to an
/// output binding. Every payload goes out as is (raw payload), never wrapped in a CloudEvent.
/// </summary>
public interface IDaprPublisher
{
    /// <param name="maxBulkPubBytes">The byte cap the entries were chunked by; the sidecar's broker component
    /// sizes its batch by it (<c>metadata.maxBulkPubBytes</c>).</param>
    /// <returns>The entries the sidecar names as failed; empty only when it confirmed every entry.</returns>
    /// <exception cref="DaprPublishException">The answer does not say which entries were published: all may have failed.</exception>
    Task<IReadOnlyList<FailedBulkEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<BulkPublishEntry> entries, int maxBulkPubBytes,
        CancellationToken cancellationToken);

    /// <exception cref="DaprPublishException">The message was not published.</exception>
    Task PublishAsync(string pubSubName, string topic, byte[] payload, string contentType, CancellationToken cancellationToken);

    /// <exception cref="DaprPublishException">The binding did not take the message.</exception>
    Task InvokeOutputBindingAsync(string bindingName, byte[] payload, string contentType, CancellationToken cancellationToken);
}

public sealed class DaprPublishException(string message, Exception? inner = null) : Exception(message, inner);

public static class DaprPublishFailure
{
    /// <summary>
    /// A failure of the sidecar or the broker behind it, worth a retry: a refusal, a broken connection, a
    /// timeout or an open circuit. The caller's own cancellation is not one.
    /// </summary>
    public static bool IsTransient(Exception exception, CancellationToken cancellationToken) =>
        exception is DaprPublishException or HttpRequestException
            or Polly.Timeout.TimeoutRejectedException or Polly.CircuitBreaker.BrokenCircuitException
        || (exception is OperationCanceledException && !cancellationToken.IsCancellationRequested);
}
