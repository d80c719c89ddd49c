using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>An order handed to a forwarder: the entry it is marked under and where it goes.</summary>
public readonly record struct RoutedOrder(string EntryId, Order Order, Destination Destination);
