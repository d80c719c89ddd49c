using Dapr.Client;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>The sidecar's calls: bulk publish (stable or alpha), one publish through the SDK, an output binding through its HTTP API.</summary>
public sealed class SidecarOutbound(SidecarBulkPublisher bulk, DaprClient dapr, IOutputBindings bindings) : ISidecarOutbound
{
    public Task<IReadOnlyList<FailedEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<OutboundMessage> messages, IReadOnlyDictionary<string, string> metadata,
        CancellationToken cancellationToken) =>
        bulk.PublishAsync(pubSubName, topic, messages, metadata, cancellationToken);

    public Task PublishAsync(
        string pubSubName, string topic, ReadOnlyMemory<byte> payload, string contentType, Dictionary<string, string> metadata,
        CancellationToken cancellationToken) =>
        dapr.PublishByteEventAsync(pubSubName, topic, payload, contentType, metadata, cancellationToken);

    public Task CreateBindingAsync(string bindingName, ReadOnlyMemory<byte> payload, CancellationToken cancellationToken) =>
        bindings.CreateAsync(bindingName, payload, cancellationToken);
}
