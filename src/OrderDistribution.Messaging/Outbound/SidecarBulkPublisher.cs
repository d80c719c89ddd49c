using Dapr;
using Dapr.Client;
using Grpc.Core;
using Microsoft.Extensions.Logging;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// One bulk publish of raw payloads through the sidecar. It uses the SDK's <see cref="DaprClient.BulkPublishEventAsync{TValue}"/>
/// (the stable method of runtime 1.17 and later) until a sidecar answers that it does not know that method; from then
/// on, for the rest of the process, the alpha method that older sidecars (daprd 1.14 to 1.16, and Container Apps'
/// managed runtime) offer. Dapr.Client 1.19 falls back to the alpha method itself only when the stable one answers
/// <c>Unimplemented</c>; sidecars before 1.17 answer an unknown method with <c>Unknown</c>, "failed to proxy request"
/// (their service-invocation proxy takes it), and the SDK throws that (checked against Dapr.Client 1.19.0 with a stub
/// gRPC server: on Unimplemented it calls BulkPublishEventAlpha1, on Unknown it does not; <c>docs/runtimes.md</c>).
/// </summary>
public sealed partial class SidecarBulkPublisher(DaprClient dapr, AlphaBulkPublishClient alpha, ILogger<SidecarBulkPublisher> logger)
{
    private volatile bool _alphaOnly;

    /// <returns>The entries the sidecar names as failed; empty only when it confirmed every entry.</returns>
    /// <exception cref="Exception">The sidecar's answer does not say which entries were published: all may have failed.</exception>
    public async Task<IReadOnlyList<FailedEntry>> PublishAsync(
        string pubSubName, string topic, IReadOnlyList<OutboundMessage> messages, IReadOnlyDictionary<string, string> metadata,
        CancellationToken cancellationToken)
    {
        if (!_alphaOnly)
        {
            try
            {
                // The SDK sends a byte[] as it is, under entry ids that are the indexes into this list.
                var response = await dapr.BulkPublishEventAsync(
                    pubSubName, topic, messages.Select(m => m.Payload).ToList(), new Dictionary<string, string>(metadata), cancellationToken);
                return response.FailedEntries
                    .Select(f => new FailedEntry(messages[int.Parse(f.Entry.EntryId, System.Globalization.CultureInfo.InvariantCulture)].EntryId, f.ErrorMessage))
                    .DistinctBy(f => f.EntryId)
                    .ToList();
            }
            catch (DaprException e) when (IsStableMethodUnknown(e))
            {
                _alphaOnly = true;
                LogAlphaFromNowOn(((RpcException)e.InnerException!).Status.Detail);
            }
            catch (KeyNotFoundException e)
            {
                throw new SidecarCallException($"The sidecar named an entry of the bulk publish to {topic} it was not sent.", e);
            }
        }

        return await alpha.PublishAsync(pubSubName, topic, messages, metadata, cancellationToken);
    }

    private static bool IsStableMethodUnknown(DaprException exception) =>
        exception.InnerException is RpcException { StatusCode: StatusCode.Unknown } rpc
        && rpc.Status.Detail.Contains("failed to proxy request", StringComparison.Ordinal);

    [LoggerMessage(LogLevel.Information,
        "The sidecar does not know the stable bulk publish (runtime older than 1.17: {Detail}); bulk publishes use its alpha method from now on")]
    private partial void LogAlphaFromNowOn(string detail);
}
