using System.Globalization;
using OrderDistribution.LoadTool.Generation;

namespace OrderDistribution.LoadTool.Leasing;

/// <summary>Who holds the store: kept as the marker blob's metadata while the lease is held.</summary>
/// <param name="Command">The order-load command that took it: run, schedule, ceiling, clear, in-process.</param>
/// <param name="Burst">The burst it runs, if it runs one.</param>
public sealed record LeaseHolder(string Command, string Host, DateTimeOffset StartedAt, BurstId? Burst)
{
    private const string CommandKey = "command";
    private const string HostKey = "host";
    private const string StartedAtKey = "startedat";
    private const string BurstKey = "burst";

    /// <summary>This process, now.</summary>
    public static LeaseHolder Now(string command, BurstId? burst) => new(command, Environment.MachineName, DateTimeOffset.UtcNow, burst);

    public Dictionary<string, string> Metadata()
    {
        var metadata = new Dictionary<string, string>
        {
            [CommandKey] = Command,
            [HostKey] = Host,
            [StartedAtKey] = StartedAt.UtcDateTime.ToString("O", CultureInfo.InvariantCulture),
        };
        if (Burst is { } burst)
        {
            metadata[BurstKey] = burst.Prefix;
        }

        return metadata;
    }

    /// <summary>The holder the metadata names, or null when it names none (the holder let go, or has not written it yet).</summary>
    public static LeaseHolder? From(IDictionary<string, string> metadata) =>
        metadata.TryGetValue(CommandKey, out var command)
        && metadata.TryGetValue(HostKey, out var host)
        && metadata.TryGetValue(StartedAtKey, out var startedAt)
        && DateTimeOffset.TryParse(startedAt, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at)
            ? new LeaseHolder(command, host, at, metadata.TryGetValue(BurstKey, out var burst)
                                                 && long.TryParse(burst, NumberStyles.None, CultureInfo.InvariantCulture, out var id)
                ? new BurstId(id)
                : null)
            : null;
}
