using System.Globalization;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// The processes a local run started, as <c>scripts/run-local.sh</c> writes them into its folder (<c>.dapr/pids</c>):
/// one file per role (<c>trio</c>: <c>dapr run</c>, whose children are the apps and their sidecars; <c>broker</c>;
/// <c>store</c>), each holding <c>&lt;pid&gt; &lt;start time&gt;</c>, the start time as <c>/proc/&lt;pid&gt;/stat</c>
/// gives it, so that a pid the system has since given to another process is not read.
/// </summary>
public static class LocalProcesses
{
    public const string DefaultFolder = ".dapr/pids";

    /// <summary>
    /// Each component the folder leads to, with its processes; none when there is no folder or no /proc.
    /// </summary>
    public static IReadOnlyList<Component> Find(string folder, string proc = "/proc")
    {
        if (!Directory.Exists(folder) || !Directory.Exists(proc))
        {
            return [];
        }

        var components = new List<Component>();
        if (Recorded(folder, "trio", proc) is { } trio)
        {
            components.AddRange(TrioOf(trio, proc));
        }

        foreach (var (file, role) in new[] { ("broker", ComponentRole.Broker), ("store", ComponentRole.Store) })
        {
            if (Recorded(folder, file, proc) is { } pid)
            {
                components.Add(new Component(file, role, [pid, .. Descendants(pid, proc)]));
            }
        }

        return components;
    }

    /// <summary>
    /// The pid in <paramref name="folder"/>/<paramref name="role"/>, if that process still runs and is the one
    /// recorded.
    /// </summary>
    private static int? Recorded(string folder, string role, string proc)
    {
        var path = Path.Combine(folder, role);
        if (!File.Exists(path))
        {
            return null;
        }

        var cells =
            File.ReadAllText(path).Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (cells.Length == 0 || !int.TryParse(cells[0], NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
            || ProcStat.Read(proc, pid) is not { } stat)
        {
            return null;
        }

        return cells.Length < 2 || cells[1] == stat.StartTime.ToString(CultureInfo.InvariantCulture) ? pid : null;
    }

    /// <summary>
    /// The apps and sidecars under <c>dapr run</c>: a sidecar is a descendant started with <c>--app-id &lt;id&gt;</c>,
    /// an app one whose environment names it (<c>APP_ID</c>, which the Dapr CLI gives each app it starts).
    /// </summary>
    private static IEnumerable<Component> TrioOf(int dapr, string proc)
    {
        var apps = new SortedDictionary<string, List<int>>(StringComparer.Ordinal);
        var sidecars = new SortedDictionary<string, List<int>>(StringComparer.Ordinal);
        foreach (var pid in Descendants(dapr, proc))
        {
            if (ArgumentAfter(Read(proc, pid, "cmdline"), "--app-id") is { } sidecarOf)
            {
                Add(sidecars, sidecarOf, pid);
            }
            else if (Variable(Read(proc, pid, "environ"), "APP_ID") is { } appId)
            {
                Add(apps, appId, pid);
            }
        }

        return apps.Select(a => new Component(a.Key, ComponentRole.App, a.Value))
            .Concat(sidecars.Select(s => new Component($"{s.Key} daprd", ComponentRole.Sidecar, s.Value)));
    }

    /// <summary>Every process below <paramref name="root"/>, from each process's parent in /proc.</summary>
    public static IReadOnlyList<int> Descendants(int root, string proc = "/proc")
    {
        var children = new Dictionary<int, List<int>>();
        foreach (var directory in Directory.EnumerateDirectories(proc))
        {
            if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
                && ProcStat.Read(proc, pid) is { } stat)
            {
                Add(children, stat.ParentPid, pid);
            }
        }

        var found = new List<int>();
        var next = new Queue<int>([root]);
        while (next.TryDequeue(out var parent))
        {
            foreach (var child in children.GetValueOrDefault(parent) ?? [])
            {
                found.Add(child);
                next.Enqueue(child);
            }
        }

        return found;
    }

    private static void Add<TKey>(IDictionary<TKey, List<int>> map, TKey key, int pid)
    {
        if (!map.TryGetValue(key, out var pids))
        {
            map[key] = pids = [];
        }

        pids.Add(pid);
    }

    private static string[] Read(string proc, int pid, string file)
    {
        try
        {
            return File.ReadAllText(Path.Combine(proc, pid.ToString(CultureInfo.InvariantCulture), file)).Split('\0');
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    private static string? ArgumentAfter(string[] arguments, string name)
    {
        var at = Array.IndexOf(arguments, name);
        return at >= 0 && at + 1 < arguments.Length && arguments[at + 1].Length > 0 ? arguments[at + 1] : null;
    }

    private static string? Variable(string[] environment, string name) =>
        environment.FirstOrDefault(e =>
            e.StartsWith(name + "=", StringComparison.Ordinal))?[(name.Length + 1)..] is { Length: > 0 } value
            ? value
            : null;
}
