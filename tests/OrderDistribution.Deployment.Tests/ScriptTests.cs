namespace OrderDistribution.Deployment.Tests;

public class ScriptTests
{
    private static IEnumerable<string> ShellScripts() =>
        Directory.GetFiles(Repo.PathOf("scripts"), "*.sh").Order(StringComparer.Ordinal);

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Every_shell_script_parses()
    {
        foreach (var script in ShellScripts())
        {
            var shell = File.ReadLines(script).First().Contains("bash", StringComparison.Ordinal) ? "bash" : "sh";
            var (exitCode, output) = Repo.Run(shell, "-n", script);
            Assert.True(exitCode == 0, $"{Path.GetFileName(script)}: {output}");
        }
    }

    [UnixFact]
    public void Every_script_is_executable_and_starts_with_a_shebang()
    {
        if (OperatingSystem.IsWindows())
        {
            return; // never reached: UnixFact skips on Windows
        }

        foreach (var script in ShellScripts().Append(Repo.PathOf("scripts/kql-check.js")))
        {
            Assert.StartsWith("#!", File.ReadLines(script).First(), StringComparison.Ordinal);
            Assert.True(File.GetUnixFileMode(script).HasFlag(UnixFileMode.UserExecute), $"{Path.GetFileName(script)} is not executable");
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Run_local_refuses_an_unknown_model_or_mode()
    {
        Assert.Equal(2, Repo.Run("bash", "scripts/run-local.sh", "--render-only", "grpc", "bulk").ExitCode);
        Assert.Equal(2, Repo.Run("bash", "scripts/run-local.sh", "--render-only", "pubsub", "batch").ExitCode);
    }
}
