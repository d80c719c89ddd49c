using System.Globalization;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// What <c>/proc/&lt;pid&gt;/stat</c> and <c>/proc/&lt;pid&gt;/status</c> say of one process: its parent, its start
/// time, the CPU it has spent (user and system) and its resident memory now.
/// </summary>
public sealed record ProcStat(int ParentPid, long StartTime, TimeSpan Cpu, long ResidentBytes)
{
    /// <summary>Clock ticks per second in /proc (USER_HZ), 100 on every Linux the project runs on.</summary>
    private const double TicksPerSecond = 100;

    /// <summary>The process's figures, or null when it has ended (or never was).</summary>
    public static ProcStat? Read(string proc, int pid)
    {
        var folder = Path.Combine(proc, pid.ToString(CultureInfo.InvariantCulture));
        string stat;
        try
        {
            stat = File.ReadAllText(Path.Combine(folder, "stat"));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        return Parse(stat, ResidentOf(folder));
    }

    /// <summary>
    /// Parses a stat line: the command name in parentheses may hold spaces and parentheses, so the fields are counted
    /// from the last ')'. Fields (from 1): 4 parent, 14 utime, 15 stime, 22 start time.
    /// </summary>
    public static ProcStat? Parse(string stat, long residentBytes)
    {
        var end = stat.LastIndexOf(')');
        if (end < 0)
        {
            return null;
        }

        // Field 3 (state) is the first after the name.
        var fields = stat[(end + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length < 20
            || !int.TryParse(fields[1], NumberStyles.None, CultureInfo.InvariantCulture, out var parent)
            || !long.TryParse(fields[11], NumberStyles.None, CultureInfo.InvariantCulture, out var user)
            || !long.TryParse(fields[12], NumberStyles.None, CultureInfo.InvariantCulture, out var system)
            || !long.TryParse(fields[19], NumberStyles.None, CultureInfo.InvariantCulture, out var start))
        {
            return null;
        }

        return new ProcStat(parent, start, TimeSpan.FromSeconds((user + system) / TicksPerSecond), residentBytes);
    }

    /// <summary>VmRSS from status, in bytes; 0 when the process has none (a zombie) or has ended.</summary>
    private static long ResidentOf(string folder)
    {
        try
        {
            foreach (var line in File.ReadLines(Path.Combine(folder, "status")))
            {
                if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                {
                    var kib = line["VmRSS:".Length..].Trim().Split(' ')[0];
                    return long.Parse(kib, NumberStyles.None, CultureInfo.InvariantCulture) * 1024;
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }

        return 0;
    }
}
