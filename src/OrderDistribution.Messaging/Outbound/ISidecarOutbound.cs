namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// The sidecar's calls that send orders on, as the forwarders make them: <see cref="SidecarOutboundClient"/> in the
/// apps, <see cref="DrySidecarOutbound"/> in the warm-up.
/// </summary>
public interface ISidecarOutbound
{
    /// <returns>The entries the sidecar names as failed; empty only when it confirmed every entry.</returns>
    /// <exception cref="Exception">The sidecar's answer does not say which entries were published: all may have
    /// failed.</exception>
    Task<IReadOnlyList<FailedEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<OutboundMessage> messages,
            IReadOnlyDictionary<string, string> metadata,
        CancellationToken cancellationToken);

    Task PublishAsync(
        string pubSubName, string topic, ReadOnlyMemory<byte> payload, string contentType,
            Dictionary<string, string> metadata,
        CancellationToken cancellationToken);

    Task CreateBindingAsync(string bindingName, ReadOnlyMemory<byte> payload, CancellationToken cancellationToken);
}
