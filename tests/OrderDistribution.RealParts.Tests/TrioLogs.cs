using System.Collections.Concurrent;
using System.Globalization;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The full logs of a trio's sidecars and apps, one file each in a folder of their own, written as the trio stops.
/// The folder is deleted after a test that passed, and kept after one that failed, whose output then ends with where
/// it is and each file's last lines (<see cref="KeepTrioLogsOfFailedTestsAttribute"/>).
/// </summary>
public sealed class TrioLogs
{
    /// <summary>How many of each log's last lines a failed test prints.</summary>
    public const int TailLines = 30;

    private static readonly ConcurrentDictionary<string, ConcurrentQueue<TrioLogs>> ByTest = new();

    private TrioLogs(string folder) => Folder = folder;

    public string Folder { get; }

    /// <summary>A new folder, named for the test that runs (its class and method) and the time.</summary>
    public static TrioLogs Create()
    {
        var test = TestContext.Current.Test?.TestCase.TestMethod is { } method
            ? $"{method.TestClass.TestClassSimpleName}.{method.MethodName}"
            : "no-test";
        var name =
            $"real-trio-logs-{DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}-{test}-";
        var logs = new TrioLogs(Directory.CreateTempSubdirectory(name[..Math.Min(name.Length, 120)]).FullName);
        if (TestContext.Current.Test is { } running)
        {
            ByTest.GetOrAdd(running.UniqueID, _ => new()).Enqueue(logs);
        }

        return logs;
    }

    /// <summary>Writes one part's whole log, as <c>name.log</c>.</summary>
    public Task WriteAsync(string name, string text) =>
        File.WriteAllTextAsync(Path.Combine(Folder, $"{name}.log"), text);

    /// <summary>Where the logs are, then each log's last <see cref="TailLines"/> lines under its name.</summary>
    public string Tails()
    {
        var text = new System.Text.StringBuilder(
            $"The full logs of the trio's sidecars and apps are kept in {Folder}\n");
        foreach (var file in Directory.EnumerateFiles(Folder, "*.log").Order(StringComparer.Ordinal))
        {
            var lines = File.ReadAllLines(file);
            text.Append(CultureInfo.InvariantCulture,
                $"--- {Path.GetFileNameWithoutExtension(file)}: last {Math.Min(TailLines, lines.Length)} of " +
                $"{lines.Length} lines ---\n");
            foreach (var line in lines.TakeLast(TailLines))
            {
                text.Append(line).Append('\n');
            }
        }

        return text.ToString();
    }

    /// <summary>The logs of the trios test <paramref name="testId"/> ran so far.</summary>
    internal static IReadOnlyList<TrioLogs> Of(string testId) =>
        ByTest.TryGetValue(testId, out var all) ? [.. all] : [];

    /// <summary>
    /// After a test: deletes its trios' logs if it passed (or was skipped); else returns them for its output, kept.
    /// </summary>
    /// <returns>What the test's output ends with; null when it has no kept logs.</returns>
    public static string? Settle(string testId, bool passed)
    {
        if (!ByTest.TryRemove(testId, out var all))
        {
            return null;
        }

        if (passed)
        {
            foreach (var logs in all)
            {
                Directory.Delete(logs.Folder, recursive: true);
            }

            return null;
        }

        return string.Join('\n', all.Select(logs => logs.Tails()));
    }
}
