using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>An order as it arrived, under the id its outcome is reported with.</summary>
public sealed record InboundOrder(string EntryId, Order Order);
