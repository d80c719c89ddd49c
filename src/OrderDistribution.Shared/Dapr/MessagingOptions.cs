using System.ComponentModel.DataAnnotations;

namespace OrderDistribution.Dapr;

public enum PubSubMode
{
    Bulk,
    Single,
}

/// <summary>How the app talks to the sidecar's pub/sub. Section <c>Messaging</c>.</summary>
public sealed class MessagingOptions
{
    public const string Section = "Messaging";

    [Required]
    public string PubSubName { get; set; } = "order-pubsub";

    /// <summary>Whether the app subscribes one message per request or in bulk.</summary>
    public PubSubMode PubSubMode { get; set; } = PubSubMode.Bulk;

    [Range(1, 10_000)]
    public int MaxMessagesCount { get; set; } = 250;

    [Range(1, 60_000)]
    public int MaxAwaitDurationMs { get; set; } = 40;

    /// <summary>No bulk publish request may carry more bytes than this (Azure Service Bus's default batch cap).</summary>
    [Range(1_024, 100 * 1024 * 1024)]
    public int MaxBulkPublishBytes { get; set; } = 131_072;
}
