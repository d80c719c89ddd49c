using System.ComponentModel.DataAnnotations;
using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging;

/// <summary>How the app talks to the sidecar. Section <c>Messaging</c>.</summary>
public sealed class MessagingOptions : IValidatableObject
{
    public const string Section = "Messaging";

    /// <summary>
    /// The largest request body the app can read: <c>JsonDocument</c> grows its buffer by doubling, and fails past 1
    /// GiB with an exception no request can be answered after.
    /// </summary>
    public const long MaxReadableRequestBytes = 1L << 30;

    [Required]
    public string PubSubName { get; set; } = OrderTopology.PubSubName;

    /// <summary>
    /// How orders travel: <c>bindings</c>, <c>pubsub-single</c> or <c>pubsub-bulk</c>. It picks the subscription
    /// (one message per request, or in bulk); in the bindings model the app keeps its bulk subscription, inert
    /// because no pub/sub component is in its scope, and its orders come on the input binding route.
    /// </summary>
    public MessagingModel Model { get; set; } = MessagingModel.PubSubBulk;

    [Range(1, 10_000)]
    public int MaxMessagesCount { get; set; } = 250;

    /// <summary>
    /// The bulk subscription's <c>maxAwaitDurationMs</c>, the longest wait to fill a bulk. It has no effect on Azure
    /// Service Bus, whose component hands the app what one receive returned without waiting (docs/azure.md, "Bulk
    /// settings on Service Bus"); it matters where the component gathers a bulk over time, as Redis does.
    /// </summary>
    [Range(1, 60_000)]
    public int MaxAwaitDurationMs { get; set; } = 40;

    /// <summary>
    /// No bulk publish request may carry more bytes than this; it is also sent with each request as
    /// <c>metadata.maxBulkPubBytes</c>, the cap of the broker's batch. 128 KiB is Dapr's default; Azure Service
    /// Bus allows 256 KB (Standard) or 1 MB (Premium) per batch.
    /// </summary>
    [Range(1_024, 1_048_576)]
    public int MaxBulkPublishBytes { get; set; } = 131_072;

    /// <summary>
    /// The broker's largest message; with <see cref="MaxMessagesCount"/> it sizes the largest valid request.
    /// </summary>
    [Range(1_024, 100 * 1024 * 1024)]
    public int MaxMessageBytes { get; set; } = 262_144;

    /// <summary>
    /// Every request of the sidecar is answered within this time; entries not done by then are answered RETRY. It must
    /// stay well under the broker's message lock and Dapr's handler timeout (60 s by default), and under the Redis
    /// component's <c>processingTimeout</c> (20 s here), or the broker hands the messages out a second time.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:00:50")]
    public TimeSpan RequestDeadline { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// The largest request body the sidecar can send in this configuration: a full bulk of the largest messages,
    /// base64-encoded (raw payload), with room for the envelope of each entry and of the request.
    /// </summary>
    public long MaxRequestBytes => (long)MaxMessagesCount * (MaxMessageBytes * 4L / 3 + 1_024) + 4_096;

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (MaxRequestBytes > MaxReadableRequestBytes)
        {
            yield return new ValidationResult(
                $"Messaging:MaxMessagesCount ({MaxMessagesCount}) bulks of Messaging:MaxMessageBytes " +
                $"({MaxMessageBytes}) messages make requests of up to {MaxRequestBytes} bytes, more than the " +
                $"{MaxReadableRequestBytes} the app can read: lower either.",
                [nameof(MaxMessagesCount), nameof(MaxMessageBytes)]);
        }
    }
}
