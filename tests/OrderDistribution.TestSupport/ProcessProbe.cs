using System.Diagnostics;
using System.Globalization;

namespace OrderDistribution.TestSupport;

/// <summary>Whether a process a test did not start itself still runs, and signals to it by id (Linux, /proc).</summary>
public static class ProcessProbe
{
    /// <summary>Whether <paramref name="pid"/> runs; a zombie (ended, not yet reaped) does not.</summary>
    public static bool Alive(int pid)
    {
        try
        {
            return !File.ReadLines($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/status")
                .Any(line => line.StartsWith("State:", StringComparison.Ordinal)
                    && line.Contains("zombie", StringComparison.Ordinal));
        }
        catch (Exception gone) when (gone is FileNotFoundException or DirectoryNotFoundException or IOException)
        {
            return false;
        }
    }

    /// <summary>Waits up to <paramref name="limit"/> for <paramref name="pid"/> to end; whether it did.</summary>
    public static async Task<bool> EndsAsync(int pid, TimeSpan limit)
    {
        var deadline = DateTime.UtcNow + limit;
        while (Alive(pid) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(100);
        }

        return !Alive(pid);
    }

    /// <summary>Sends <paramref name="signal"/> (TERM, KILL, ...) to <paramref name="pid"/>, as kill does.</summary>
    public static void Signal(int pid, string signal)
    {
        using var kill = Process.Start("kill", ["-" + signal, pid.ToString(CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
    }
}
