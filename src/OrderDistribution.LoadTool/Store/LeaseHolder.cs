using System.Globalization;
using OrderDistribution.LoadTool.Generation;

namespace OrderDistribution.LoadTool.Store;

/// <summary>Who holds the store: kept as the marker blob's metadata while the lease is held.</summary>
/// <param name="Command">The order-load command that took it: run, schedule, ceiling, clear, in-process.</param>
/// <param name="Burst">The burst it runs, if it runs one.</param>
public sealed record LeaseHolder(string Command, string Host, DateTimeOffset StartedAt, BurstId? Burst)
{
    private const string CommandKey = "command";
    private const string HostKey = "host";
    private const string StartedAtKey = "startedat";
    private const string BurstKey = "burst";

    /// <summary>Before the keys a holder writes as it lets go, so a burst that was away can name it.</summary>
    private const string LastPrefix = "last";

    /// <summary>This process, now.</summary>
    public static LeaseHolder Now(string command, BurstId? burst, TimeProvider time) =>
        new(command, Environment.MachineName, time.GetUtcNow(), burst);

    public Dictionary<string, string> Metadata() => Metadata("");

    /// <summary>What the marker keeps once this holder lets go: the same under other keys, naming no holder.</summary>
    public Dictionary<string, string> Released() => Metadata(LastPrefix);

    /// <summary>The holder the metadata names; null when none (the holder let go, or has not written it yet).</summary>
    public static LeaseHolder? From(IDictionary<string, string> metadata) => From(metadata, "");

    /// <summary>The holder that let go last, if the metadata names one.</summary>
    public static LeaseHolder? LastFrom(IDictionary<string, string> metadata) => From(metadata, LastPrefix);

    /// <summary>"order-load run (burst 483920) from host build-7, started 2026-11-26 07:31:02 UTC".</summary>
    public string Describe() => string.Create(CultureInfo.InvariantCulture,
        $"order-load {Command}{(Burst is { } burst ? $" (burst {burst})" : "")} from host {Host}, " +
        $"started {StartedAt:yyyy-MM-dd HH:mm:ss} UTC");

    private Dictionary<string, string> Metadata(string prefix)
    {
        var metadata = new Dictionary<string, string>
        {
            [prefix + CommandKey] = Command,
            [prefix + HostKey] = Host,
            [prefix + StartedAtKey] = StartedAt.UtcDateTime.ToString("O", CultureInfo.InvariantCulture),
        };
        if (Burst is { } burst)
        {
            metadata[prefix + BurstKey] = burst.Prefix;
        }

        return metadata;
    }

    private static LeaseHolder? From(IDictionary<string, string> metadata, string prefix) =>
        metadata.TryGetValue(prefix + CommandKey, out var command)
        && metadata.TryGetValue(prefix + HostKey, out var host)
        && metadata.TryGetValue(prefix + StartedAtKey, out var startedAt)
        && DateTimeOffset.TryParse(startedAt, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at)
            ? new LeaseHolder(command, host, at, BurstOf(metadata, prefix))
            : null;

    private static BurstId? BurstOf(IDictionary<string, string> metadata, string prefix) =>
        metadata.TryGetValue(prefix + BurstKey, out var burst)
        && long.TryParse(burst, NumberStyles.None, CultureInfo.InvariantCulture, out var id)
            ? new BurstId(id)
            : null;
}
