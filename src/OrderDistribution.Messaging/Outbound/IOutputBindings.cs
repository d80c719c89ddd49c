namespace OrderDistribution.Messaging.Outbound;

/// <summary>Hands a payload to an output binding of the sidecar (the bindings model's queues).</summary>
public interface IOutputBindings
{
    /// <exception cref="Exception">The sidecar did not confirm it (<see cref="SidecarFailure.Classify(Exception)"/>
    /// reads why).</exception>
    Task CreateAsync(string bindingName, ReadOnlyMemory<byte> payload, CancellationToken cancellationToken);
}
