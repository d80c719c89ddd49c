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

    /// <summary>Waits up to <paramref name="limit"/> for <paramref name="process"/>, a child of this one, to exit;
    /// whether it did.</summary>
    public static async Task<bool> ExitsAsync(Process process, TimeSpan limit)
    {
        using var timeout = new CancellationTokenSource(limit);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>The processes <paramref name="pid"/> started, and theirs, as /proc lists them now.</summary>
    public static IReadOnlyList<int> Descendants(int pid)
    {
        var parents = new Dictionary<int, int>();
        foreach (var folder in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(folder), CultureInfo.InvariantCulture, out var child)
                && ParentOf(folder) is { } parent)
            {
                parents[child] = parent;
            }
        }

        var found = new List<int>();
        for (var added = new List<int> { pid }; added.Count > 0;)
        {
            added = parents.Where(p => added.Contains(p.Value)).Select(p => p.Key).ToList();
            found.AddRange(added);
        }

        return found;
    }

    /// <summary>The command line of <paramref name="pid"/>, its arguments joined by spaces; empty once it
    /// ended.</summary>
    public static string CommandLine(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/cmdline").Replace('\0', ' ');
        }
        catch (Exception gone) when (gone is FileNotFoundException or DirectoryNotFoundException or IOException)
        {
            return "";
        }
    }

    /// <summary>Sends <paramref name="signal"/> (TERM, KILL, ...) to <paramref name="pid"/>, as kill does.</summary>
    public static void Signal(int pid, string signal)
    {
        using var kill = Process.Start("kill", ["-" + signal, pid.ToString(CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
    }

    /// <summary>The parent in a /proc/PID folder's stat (the field after the state, past the name's last
    /// ')').</summary>
    private static int? ParentOf(string folder)
    {
        try
        {
            var stat = File.ReadAllText(Path.Combine(folder, "stat"));
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return int.Parse(fields[1], CultureInfo.InvariantCulture);
        }
        catch (Exception gone) when (gone is FileNotFoundException or DirectoryNotFoundException or IOException)
        {
            return null;
        }
    }
}
