namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Sends nothing and confirms everything: what the warm-up runs the real forwarders against, so that a sample request
/// takes the whole way out up to the sidecar call, and no order is published and no sidecar is waited for.
/// </summary>
public sealed class DrySidecarOutbound : ISidecarOutbound
{
    public Task<IReadOnlyList<FailedEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<OutboundMessage> messages,
            IReadOnlyDictionary<string, string> metadata,
        CancellationToken cancellationToken) =>
        Task.FromResult<IReadOnlyList<FailedEntry>>([]);

    public Task PublishAsync(
        string pubSubName, string topic, ReadOnlyMemory<byte> payload, string contentType,
            Dictionary<string, string> metadata,
        CancellationToken cancellationToken) =>
        Task.CompletedTask;

    public Task CreateBindingAsync(string bindingName, ReadOnlyMemory<byte> payload,
        CancellationToken cancellationToken) =>
        Task.CompletedTask;
}
