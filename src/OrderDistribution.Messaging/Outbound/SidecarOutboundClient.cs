using Dapr;
using Dapr.Client;
using Grpc.Core;
using Microsoft.Extensions.Logging;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// The sidecar's calls that send orders on: a bulk publish through the SDK's stable method until a sidecar answers
/// that it does not know it, then, for the rest of the process, through the alpha method older sidecars offer
/// (<c>docs/runtimes.md</c>, "Bulk publish on runtimes before 1.17"); one publish through the SDK; an output binding
/// through the sidecar's HTTP API (<see cref="SidecarOutputBindings"/>).
/// </summary>
public sealed partial class SidecarOutboundClient(
    DaprClient dapr, AlphaBulkPublishClient alpha, IOutputBindings bindings, ILogger<SidecarOutboundClient> logger)
    : ISidecarOutbound
{
    private volatile bool _alphaOnly;

    public async Task<IReadOnlyList<FailedEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<OutboundMessage> messages,
            IReadOnlyDictionary<string, string> metadata,
        CancellationToken cancellationToken)
    {
        if (!_alphaOnly)
        {
            try
            {
                // The SDK sends a byte[] as it is, under entry ids that are the indexes into this list.
                var response = await dapr.BulkPublishEventAsync(
                    pubSubName, topic, messages.Select(m => m.Payload).ToList(),
                        new Dictionary<string, string>(metadata), cancellationToken);
                return response.FailedEntries
                    .Select(f =>
                        new FailedEntry(messages[int.Parse(f.Entry.EntryId,
                            System.Globalization.CultureInfo.InvariantCulture)].EntryId, f.ErrorMessage))
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
                throw new SidecarCallException(
                    $"The sidecar named an entry of the bulk publish to {topic} it was not sent.", e);
            }
        }

        return await alpha.PublishAsync(pubSubName, topic, messages, metadata, cancellationToken);
    }

    public Task PublishAsync(
        string pubSubName, string topic, ReadOnlyMemory<byte> payload, string contentType,
        Dictionary<string, string> metadata, CancellationToken cancellationToken) =>
        dapr.PublishByteEventAsync(pubSubName, topic, payload, contentType, metadata, cancellationToken);

    public Task CreateBindingAsync(string bindingName, ReadOnlyMemory<byte> payload,
        CancellationToken cancellationToken) =>
        bindings.CreateAsync(bindingName, payload, cancellationToken);

    private static bool IsStableMethodUnknown(DaprException exception) =>
        exception.InnerException is RpcException { StatusCode: StatusCode.Unknown } rpc
        && rpc.Status.Detail.Contains("failed to proxy request", StringComparison.Ordinal);

    [LoggerMessage(LogLevel.Information,
        "The sidecar does not know the stable bulk publish (runtime older than 1.17: {Detail}); bulk publishes use " +
            "its alpha method from now on")]
    private partial void LogAlphaFromNowOn(string detail);
}
