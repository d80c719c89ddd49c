namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// An order's destination: its queue (the pub/sub topic) and the queue's output binding (bindings model).
/// </summary>
public sealed record Destination(string Queue, string OutputBinding);
