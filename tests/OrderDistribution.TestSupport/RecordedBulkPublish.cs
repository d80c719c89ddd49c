namespace OrderDistribution.TestSupport;

/// <summary>One bulk publish the distributor made: the topic, its metadata and the payloads, in order.</summary>
public sealed record RecordedBulkPublish(string Topic, IReadOnlyDictionary<string, string> Metadata,
    IReadOnlyList<byte[]> Payloads);
