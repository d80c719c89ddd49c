namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// The sidecar did not confirm a call (a publish, a bulk publish or an output binding): it may not have happened.
/// </summary>
public sealed class SidecarCallException(string message, Exception? inner = null) : Exception(message, inner);
