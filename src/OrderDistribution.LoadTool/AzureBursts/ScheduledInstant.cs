using System.Globalization;
using OrderDistribution.LoadTool.Scheduling;

namespace OrderDistribution.LoadTool.AzureBursts;

/// <summary>
/// What scripts/azure-burst.sh needs of the schedule record of a burst: the instant it was scheduled for, in storage's
/// time, and how far storage's clock was ahead of this machine's (cut to whole seconds: the query window's margin
/// covers the rest).
/// </summary>
public sealed record ScheduledInstant(DateTimeOffset At, long SkewSeconds)
{
    public TimeSpan Skew => TimeSpan.FromSeconds(SkewSeconds);

    /// <summary>The instant as UTC text with a Z, its fraction of a second kept (none when whole).</summary>
    public string Text => At.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.FFFFFFFZ", CultureInfo.InvariantCulture);

    /// <summary>
    /// Whole seconds (rounded up) from <paramref name="now"/> until the instant by this machine's clock; 0 once past.
    /// </summary>
    public long SecondsUntil(DateTimeOffset now) => Math.Max(0, (long)Math.Ceiling((At - Skew - now).TotalSeconds));

    /// <summary>
    /// The record at <paramref name="path"/>, or null when there is none (a burst that failed before scheduling).
    /// </summary>
    /// <exception cref="InvalidDataException">
    /// The file is no schedule record, or its skew is one no clock can be off by; the message names the file.
    /// </exception>
    public static async Task<ScheduledInstant?> ReadAsync(string path, CancellationToken cancellationToken)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        var record = await ScheduleRecord.ReadAsync(path, cancellationToken);
        var skew = Math.Truncate(record.ClockSkewSeconds ?? 0);
        // A skew past the calendar's ends is no measurement: the instant by this machine's clock would not exist.
        if (Math.Abs(skew) > (record.ScheduledAt - DateTimeOffset.MinValue).TotalSeconds
            || Math.Abs(skew) > (DateTimeOffset.MaxValue - record.ScheduledAt).TotalSeconds)
        {
            throw new InvalidDataException(string.Create(CultureInfo.InvariantCulture,
                $"{path} holds a clock skew of {record.ClockSkewSeconds} s, not a skew a query window can take"));
        }

        return new ScheduledInstant(record.ScheduledAt.ToUniversalTime(), (long)skew);
    }
}
