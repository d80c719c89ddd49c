namespace OrderDistribution.Messaging.Outbound;

/// <summary>Splits entries into bulk publishes that each stay within a byte budget.</summary>
public static class BulkPublishBudget
{
    /// <summary>
    /// Room left per message for what the broker adds around the payload (AMQP framing, message id,
    /// properties). Azure Service Bus counts these against the batch cap too.
    /// </summary>
    public const int PerEntryOverheadBytes = 256;

    /// <param name="metadata">Metadata every entry carries (the SDK and the alpha request copy the request's onto
    /// each).</param>
    public static int CostOf(OutboundMessage message, IReadOnlyDictionary<string, string>? metadata = null) =>
        CostOf(message, MetadataBytesOf(metadata));

    /// <summary>
    /// Greedy, in order: each chunk holds as many entries as fit in <paramref name="maxBytes"/>.
    /// An entry that alone exceeds the budget goes in a chunk of its own.
    /// </summary>
    public static List<List<OutboundMessage>> Chunk(
        IReadOnlyList<OutboundMessage> entries, int maxBytes, IReadOnlyDictionary<string, string>? metadata = null)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(maxBytes, PerEntryOverheadBytes);
        var metadataBytes = MetadataBytesOf(metadata);
        var chunks = new List<List<OutboundMessage>>();
        var current = new List<OutboundMessage>();
        var currentBytes = 0;
        foreach (var entry in entries)
        {
            var cost = CostOf(entry, metadataBytes);
            if (current.Count > 0 && currentBytes + cost > maxBytes)
            {
                chunks.Add(current);
                current = [];
                currentBytes = 0;
            }

            current.Add(entry);
            currentBytes += cost;
        }

        if (current.Count > 0)
        {
            chunks.Add(current);
        }

        return chunks;
    }

    private static int CostOf(OutboundMessage message, int metadataBytes) =>
        message.Payload.Length + PerEntryOverheadBytes + metadataBytes;

    private static int MetadataBytesOf(IReadOnlyDictionary<string, string>? metadata) =>
        metadata?.Sum(m =>
            System.Text.Encoding.UTF8.GetByteCount(m.Key) + System.Text.Encoding.UTF8.GetByteCount(m.Value)) ?? 0;
}
