using System.Runtime.Versioning;
using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Every shell script at once: help that runs nothing, syntax, shebang and mode, shellcheck, bash 3.2, and the shared
/// functions sourced.
/// </summary>
public class ScriptTests
{
    /// <summary>scripts/*.sh and the CI entry point, .ci/run.</summary>
    private static IEnumerable<string> ShellScripts() =>
        Directory.GetFiles(Repo.PathOf("scripts"), "*.sh").Order(StringComparer.Ordinal).Append(Repo.PathOf(".ci/run"));

    /// <summary>The functions the scripts share, scripts/lib/*.sh, sourced and never run on their own.</summary>
    private static IEnumerable<string> SharedFunctions() =>
        Directory.GetFiles(Repo.PathOf("scripts/lib"), "*.sh").Order(StringComparer.Ordinal);

    private static IEnumerable<string> EveryShellFile() => ShellScripts().Concat(SharedFunctions());

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Every_script_with_help_prints_its_usage_and_runs_nothing_else()
    {
        // PATH holds sed alone: a script that ran anything else before it printed its usage (dirname, npm, dotnet,
        // apt-get...) would say "command not found".
        var onlySed = Directory.CreateTempSubdirectory("only-sed-");
        try
        {
            File.CreateSymbolicLink(Path.Combine(onlySed.FullName, "sed"), Repo.FindOnPath("sed")!);
            foreach (var script in ShellScripts())
            {
                var (exitCode, output) = Repo.Run("/usr/bin/env", "-i", $"PATH={onlySed.FullName}",
                    Repo.FindOnPath("bash")!, script, "--help");

                var name = Path.GetRelativePath(Repo.Root, script);
                Assert.True(exitCode == 0, $"{name} --help exited {exitCode}: {output}");
                Assert.DoesNotContain("not found", output, StringComparison.Ordinal);
                Assert.Contains("Usage:", output, StringComparison.Ordinal);
                Assert.DoesNotContain("\n#", output, StringComparison.Ordinal);
            }
        }
        finally
        {
            onlySed.Delete(recursive: true);
        }
    }

    [RequiresProgramFact("bash", "apt-get install bash")]
    public void Every_shell_script_parses()
    {
        foreach (var script in EveryShellFile())
        {
            var shell = File.ReadLines(script).First().Contains("bash", StringComparison.Ordinal) ? "bash" : "sh";
            var (exitCode, output) = Repo.Run(shell, "-n", script);
            Assert.True(exitCode == 0, $"{Path.GetFileName(script)}: {output}");
        }
    }

    [Fact]
    [UnsupportedOSPlatform("windows")]
    public void Every_script_is_executable_and_starts_with_a_shebang()
    {
        if (OperatingSystem.IsWindows())
        {
            Assert.Skip("file modes exist on Unix only");
        }

        foreach (var script in ShellScripts().Append(Repo.PathOf("scripts/kql-check.js")))
        {
            Assert.StartsWith("#!", File.ReadLines(script).First(), StringComparison.Ordinal);
            Assert.True(File.GetUnixFileMode(script).HasFlag(UnixFileMode.UserExecute),
                $"{Path.GetFileName(script)} is not executable");
        }
    }

    [Fact]
    public void Every_shared_function_file_is_sourced_by_a_script_and_names_its_shell_for_shellcheck()
    {
        var scripts = ShellScripts().Select(File.ReadAllText).ToList();
        foreach (var file in SharedFunctions())
        {
            var name = Path.GetFileName(file);
            Assert.Equal("# shellcheck shell=bash", File.ReadLines(file).First());
            Assert.True(
                scripts.Any(script => script.Contains($". \"$ROOT/scripts/lib/{name}\"", StringComparison.Ordinal)),
                $"scripts/lib/{name} is sourced by no script");
        }
    }

    [RequiresProgramFact("shellcheck", "apt-get install shellcheck")]
    public void Every_shell_script_passes_shellcheck()
    {
        var failures = new List<string>();
        foreach (var script in EveryShellFile())
        {
            var (exitCode, output) = Repo.Run("shellcheck", Path.GetRelativePath(Repo.Root, script));
            if (exitCode != 0)
            {
                failures.Add(output);
            }
        }

        Assert.True(failures.Count == 0, string.Join('\n', failures));
    }

    [Fact]
    public void No_bash_script_uses_a_construct_that_macos_bash_3_2_lacks()
    {
        // Case conversion, associative arrays, mapfile/readarray, namerefs, &>> and |& came with bash 4.
        var bash4 = new Regex(
            @"\$\{[A-Za-z_][A-Za-z_0-9]*(\^\^?|,,?)[^}]*\}|\bmapfile\b|\breadarray\b|\bdeclare\s+-[A-Za-z]*[An]" +
            @"|\blocal\s+-n\b|&>>|\|&|\bwait\s+-n\b");
        foreach (var script in EveryShellFile()
            .Where(s => File.ReadLines(s).First().Contains("bash", StringComparison.Ordinal)))
        {
            var lines = File.ReadAllLines(script);
            for (var i = 0; i < lines.Length; i++)
            {
                if (!lines[i].TrimStart().StartsWith('#'))
                {
                    Assert.False(bash4.IsMatch(lines[i]),
                        $"{Path.GetFileName(script)}:{i + 1} needs bash 4: {lines[i].Trim()}");
                }
            }
        }
    }
}
