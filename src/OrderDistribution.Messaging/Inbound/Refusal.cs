namespace OrderDistribution.Messaging.Inbound;

/// <summary>An entry refused for good: its id, its body as delivered, and why.</summary>
internal sealed record Refusal(string EntryId, byte[] Body, string Reason);
