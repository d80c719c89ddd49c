namespace OrderDistribution.Messaging.Outbound;

/// <summary>The sidecar did not confirm a publish or a binding call: it may not have happened.</summary>
public sealed class DaprPublishException(string message, Exception? inner = null) : Exception(message, inner);
