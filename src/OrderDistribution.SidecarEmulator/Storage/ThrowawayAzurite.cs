using System.Diagnostics;
using System.Globalization;

namespace OrderDistribution.SidecarEmulator.Storage;

/// <summary>
/// An Azurite with its data in a temporary folder of its own, both gone when this is disposed. The folder names its
/// owner (this process) and its Azurite in a file, so that what a killed owner left (kill -9 runs no dispose) is found
/// and stopped by the next start with the same prefix: <see cref="RemoveLeftovers"/>.
/// </summary>
public sealed class ThrowawayAzurite : IAsyncDisposable
{
    /// <summary>The file in the folder: the owner's pid and start time, then Azurite's, one per line.</summary>
    private const string OwnersFile = "owners";

    private readonly DirectoryInfo _folder;

    private ThrowawayAzurite(Azurite azurite, DirectoryInfo folder)
    {
        Azurite = azurite;
        _folder = folder;
    }

    public Azurite Azurite { get; }

    public string Folder => _folder.FullName;

    /// <param name="prefix">The temporary folder's name starts with it (as <see cref="RemoveLeftovers"/> looks for
    /// it).</param>
    public static async Task<ThrowawayAzurite> StartAsync(string prefix)
    {
        var folder = Directory.CreateTempSubdirectory(prefix);
        try
        {
            var owners = Path.Combine(folder.FullName, OwnersFile);
            await File.WriteAllTextAsync(owners, Line(Environment.ProcessId));
            var azurite = await Azurite.StartAsync(Path.Combine(folder.FullName, "data"));
            await File.AppendAllTextAsync(owners, Line(azurite.ProcessId));
            return new ThrowawayAzurite(azurite, folder);
        }
        catch
        {
            folder.Delete(recursive: true);
            throw;
        }
    }

    /// <summary>
    /// Stops each Azurite whose owner no longer runs, among the temporary folders that start with
    /// <paramref name="prefix"/>, and removes its folder; a folder whose owner still runs is left alone.
    /// </summary>
    /// <returns>One line saying what it stopped and removed; null when there was nothing.</returns>
    public static string? RemoveLeftovers(string prefix)
    {
        var done = new List<string>();
        foreach (var folder in new DirectoryInfo(Path.GetTempPath()).EnumerateDirectories(prefix + "*"))
        {
            string[] lines;
            try
            {
                lines = File.ReadAllLines(Path.Combine(folder.FullName, OwnersFile));
            }
            catch (Exception unreadable)
                when (unreadable is FileNotFoundException or IOException or UnauthorizedAccessException)
            {
                // Not one of ours, or its owner is writing it right now.
                continue;
            }

            using var owner = lines.Length > 0 ? Runs(lines[0]) : null;
            if (lines.Length == 0 || !Names(lines[0], out var ownerPid) || owner is not null)
            {
                // Not one of ours, or its owner still runs (a burst right now).
                continue;
            }

            var what = $"run {ownerPid.ToString(CultureInfo.InvariantCulture)}:";
            if (lines.Length > 1 && Runs(lines[1]) is { } azurite)
            {
                using (azurite)
                {
                    what += $" stopped its Azurite (pid {azurite.Id.ToString(CultureInfo.InvariantCulture)}),";
                    try
                    {
                        azurite.Kill(entireProcessTree: true);
                    }
                    catch (Exception ended)
                        when (ended is InvalidOperationException or System.ComponentModel.Win32Exception)
                    {
                        what += $" (could not: {ended.Message})";
                    }
                }

                // Not its parent, so no wait: until its pid is gone, lest it write into the folder being removed.
                for (var waited = 0; waited < 100 && Runs(lines[1]) is { } still; waited++)
                {
                    still.Dispose();
                    Thread.Sleep(100);
                }
            }

            done.Add(what + Remove(folder));
        }

        return done.Count == 0 ? null
            : $"Cleaned up after in-process runs that ended without it: {string.Join("; ", done)}.";
    }

    /// <summary>
    /// Removes the data first and the owners file last, so that a folder left half removed is found again.
    /// </summary>
    private static string Remove(DirectoryInfo folder)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                var data = Path.Combine(folder.FullName, "data");
                if (Directory.Exists(data))
                {
                    Directory.Delete(data, recursive: true);
                }

                folder.Delete(recursive: true);
                return $" removed {folder.FullName}";
            }
            catch (Exception kept) when (kept is IOException or UnauthorizedAccessException)
            {
                if (attempt == 5)
                {
                    return $" could not remove {folder.FullName} ({kept.Message})";
                }

                Thread.Sleep(200);
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await Azurite.DisposeAsync();
        _folder.Delete(recursive: true);
    }

    private static string Line(int pid)
    {
        using var process = Process.GetProcessById(pid);
        return $"{pid.ToString(CultureInfo.InvariantCulture)} " +
            $"{process.StartTime.ToUniversalTime().Ticks.ToString(CultureInfo.InvariantCulture)}\n";
    }

    private static bool Names(string line, out int pid) =>
        int.TryParse(line.Split(' ')[0], CultureInfo.InvariantCulture, out pid);

    /// <summary>
    /// The process a line names if it still runs: its pid alive with the start time the line gives (to the second,
    /// as start times read back on Linux vary by a few milliseconds); else, gone or its pid reused, null.
    /// </summary>
    private static Process? Runs(string line)
    {
        var parts = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length != 2 || !int.TryParse(parts[0], CultureInfo.InvariantCulture, out var pid)
            || !long.TryParse(parts[1], CultureInfo.InvariantCulture, out var started))
        {
            return null;
        }

        Process? process = null;
        try
        {
            process = Process.GetProcessById(pid);
            if (!process.HasExited
                && Math.Abs(process.StartTime.ToUniversalTime().Ticks - started) < TimeSpan.TicksPerSecond)
            {
                return process;
            }
        }
        catch (Exception gone) when (gone is ArgumentException or InvalidOperationException)
        {
            // Not running.
        }

        process?.Dispose();
        return null;
    }
}
