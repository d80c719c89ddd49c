namespace OrderDistribution.Messaging.Outbound;

/// <summary>An order's destination: the queue's topic (pub/sub) and output binding (bindings model).</summary>
public sealed record Destination(string Topic, string OutputBinding);
