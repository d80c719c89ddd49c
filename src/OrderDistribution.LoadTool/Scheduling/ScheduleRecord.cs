using System.Text.Json;

namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>What 'schedule' leaves for 'watch': when the orders were scheduled, and how.</summary>
public sealed record ScheduleRecord(DateTimeOffset ScheduledAt, string Model, int Count, string OrdersFile)
{
    /// <summary>
    /// Azure: storage's clock minus this machine's when scheduling (ServiceClock); ScheduledAt is already in storage's
    /// time.
    /// </summary>
    public double? ClockSkewSeconds { get; init; }

    /// <summary>
    /// The burst scheduled (<see cref="Generation.BurstId"/>); none in a record written before bursts had ids.
    /// </summary>
    public long? Burst { get; init; }

    public static async Task WriteAsync(string path, ScheduleRecord record, CancellationToken cancellationToken)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        // Whole or not at all: scripts/azure-burst.sh reads the record while the burst runs.
        var written = path + ".writing";
        await File.WriteAllTextAsync(written, JsonSerializer.Serialize(record), cancellationToken);
        File.Move(written, path, overwrite: true);
    }

    /// <exception cref="FileNotFoundException">There is no record at <paramref name="path"/>.</exception>
    /// <exception cref="InvalidDataException">
    /// The file is no schedule record; the message names it, and the field that is not what it should be.
    /// </exception>
    public static async Task<ScheduleRecord> ReadAsync(string path, CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
        {
            throw new FileNotFoundException(
                $"No schedule record at {path}: run 'schedule' first, or pass --scheduled-at.", path);
        }

        ScheduleRecord? record;
        try
        {
            record = JsonSerializer.Deserialize<ScheduleRecord>(await File.ReadAllTextAsync(path, cancellationToken));
        }
        catch (JsonException e)
        {
            // The serializer's message names .NET types: the user gets the field instead.
            throw new InvalidDataException(e.Path is ['$', '.', .. var field]
                ? $"{path} is not a schedule record (its {field} is not what one holds there): run 'schedule' again"
                : $"{path} is not a schedule record (not JSON): run 'schedule' again", e);
        }

        return record is { Model: not null, OrdersFile: not null } && record.ScheduledAt != default
            ? record
            : throw new InvalidDataException(
                $"{path} is not a schedule record (no scheduled time, model or orders file): run 'schedule' again");
    }
}
