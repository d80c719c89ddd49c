using OrderDistribution.Messaging;
namespace OrderDistribution.TrioHarness;

public sealed record TrioRunOptions
{
    public int Orders { get; init; } = 10_000;

    public MessagingModel Model { get; init; } = MessagingModel.PubSubBulk;

    public double PublishFailureRate { get; init; }

    public double WriteFailureRate { get; init; }

    public double PoisonRate { get; init; }

    public bool DeliverEveryMessageTwice { get; init; }

    /// <summary>
    /// Single requests the sidecar runs into each app at once: run-local.sh's appMaxConcurrency in single mode.
    /// </summary>
    public int ConcurrentSingleRequests { get; init; } = 64;

    public TimeSpan RetryInterval { get; init; } = TimeSpan.FromMilliseconds(200);

    /// <summary>The Redis component's <c>processingTimeout</c>, as the emulator takes it; the emulator's own by
    /// default.</summary>
    public TimeSpan ProcessingTimeout { get; init; } = new EmulatedSidecarOptions().ProcessingTimeout;

    /// <summary>Further settings for every app, over its appsettings.json.</summary>
    public IReadOnlyDictionary<string, string?> Settings { get; init; } = new Dictionary<string, string?>();

    public TimeSpan Timeout { get; init; } = TimeSpan.FromMinutes(10);

    /// <summary>Azurite keeps its data there (on disk, as in a real run); in memory when null.</summary>
    public string? AzuriteDataFolder { get; init; }

    public int Seed { get; init; } = 1;
}
