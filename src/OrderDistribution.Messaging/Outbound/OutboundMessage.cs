namespace OrderDistribution.Messaging.Outbound;

/// <summary>A payload to publish as it is (raw payload), under the id its outcome is reported with.</summary>
public sealed record OutboundMessage(string EntryId, byte[] Payload);
