using System.Text.Json;

namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>What 'schedule' leaves for 'watch': when the orders were scheduled, and how.</summary>
public sealed record ScheduleRecord(DateTimeOffset ScheduledAt, string Model, int Count, string OrdersFile)
{
    /// <summary>Azure: storage's clock minus this machine's when scheduling (ServiceClock); ScheduledAt is already in storage's time.</summary>
    public double? ClockSkewSeconds { get; init; }

    /// <summary>The burst scheduled (<see cref="Generation.BurstId"/>); none in a record written before bursts had ids.</summary>
    public long? Burst { get; init; }

    public static async Task WriteAsync(string path, ScheduleRecord record, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        // Whole or not at all: scripts/azure-burst.sh reads the record while the burst runs.
        var written = path + ".writing";
        await File.WriteAllTextAsync(written, JsonSerializer.Serialize(record), cancellationToken);
        File.Move(written, path, overwrite: true);
    }

    public static async Task<ScheduleRecord> ReadAsync(string path, CancellationToken cancellationToken) =>
        File.Exists(path)
            ? JsonSerializer.Deserialize<ScheduleRecord>(await File.ReadAllTextAsync(path, cancellationToken))
              ?? throw new InvalidDataException($"{path} is empty.")
            : throw new FileNotFoundException($"No schedule record at {path}: run 'schedule' first, or pass --scheduled-at.", path);
}
