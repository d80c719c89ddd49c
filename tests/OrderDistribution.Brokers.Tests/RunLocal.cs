using System.Diagnostics;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Brokers.Tests;

/// <summary>What scripts/run-local.sh configures the brokers with, read from the script itself.</summary>
internal static class RunLocal
{
    /// <summary>The persistence settings the script starts Redis with.</summary>
    public static IReadOnlyList<string> RedisPersistenceArgs() => Run("--redis-persistence-args");

    /// <summary>The Lua script the local run trims the streams with.</summary>
    public static string TrimStreamsScript() =>
        File.ReadAllText(Path.Combine(RepositoryRoot.Path, "scripts", "trim-streams.lua"));

    private static List<string> Run(string option)
    {
        var start = new ProcessStartInfo("bash")
        {
            RedirectStandardOutput = true,
            WorkingDirectory = RepositoryRoot.Path
        };
        start.ArgumentList.Add("scripts/run-local.sh");
        start.ArgumentList.Add(option);
        using var script = Process.Start(start)!;
        var lines = script.StandardOutput.ReadToEnd().Split('\n', StringSplitOptions.RemoveEmptyEntries).ToList();
        Assert.True(script.WaitForExit(TimeSpan.FromSeconds(30)),
            $"scripts/run-local.sh {option} did not end within 30 s");
        Assert.Equal(0, script.ExitCode);
        return lines;
    }
}
