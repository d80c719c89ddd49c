using System.Diagnostics;

namespace OrderDistribution.Deployment.Tests;

/// <summary>Files of the repository under test, found from the test's output folder.</summary>
internal static class Repo
{
    public static readonly string Root = FindRoot();

    public static string PathOf(string relative) => Path.GetFullPath(Path.Combine(Root, relative));

    public static string Read(string relative)
    {
        var path = PathOf(relative);
        Assert.True(File.Exists(path), $"{relative} does not exist");
        return File.ReadAllText(path);
    }

    /// <summary>A script with the shared functions it sources (scripts/lib), as one text.</summary>
    public static string ReadScript(string relative)
    {
        var script = Read(relative);
        var sourced = Directory.GetFiles(PathOf("scripts/lib"), "*.sh").Order(StringComparer.Ordinal)
            .Where(file =>
                script.Contains($". \"$ROOT/scripts/lib/{Path.GetFileName(file)}\"", StringComparison.Ordinal));
        return string.Join('\n', sourced.Select(File.ReadAllText).Prepend(script));
    }

    public static bool Exists(string relative) => File.Exists(PathOf(relative));

    /// <summary>
    /// Copies scripts/run-local.sh into <paramref name="copy"/> with the shared functions it sources and the table of
    /// renamed settings it reads.
    /// </summary>
    public static void CopyRunLocal(string copy)
    {
        var sourced = Directory.GetFiles(PathOf("scripts/lib"), "*.sh")
            .Select(file => Path.GetRelativePath(Root, file));
        foreach (var file in sourced.Prepend("src/OrderDistribution.ServiceDefaults/renamed-settings.tsv")
            .Prepend("scripts/run-local.sh"))
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.Combine(copy, file))!);
            File.Copy(PathOf(file), Path.Combine(copy, file));
        }
    }

    /// <summary>Looks a program up on PATH, as a shell would.</summary>
    public static string? FindOnPath(string program)
    {
        var path = Environment.GetEnvironmentVariable("PATH") ?? "";
        return path.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(dir => Path.Combine(dir, program))
            .FirstOrDefault(File.Exists);
    }

    /// <summary>Runs a program in the repository root and returns its exit code and output.</summary>
    public static (int ExitCode, string Output) Run(string program, params string[] arguments) =>
        Run(program, TimeSpan.FromSeconds(60), arguments);

    /// <summary>
    /// Runs a program in the repository root, for at most <paramref name="limit"/>, and returns its exit code and
    /// output.
    /// </summary>
    public static (int ExitCode, string Output) Run(string program, TimeSpan limit, params string[] arguments)
    {
        var start = new ProcessStartInfo(program)
        {
            WorkingDirectory = Root,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(limit))
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"{program} {string.Join(' ', arguments)} did not finish within {limit.TotalSeconds:0} s");
        }

        return (process.ExitCode, stdout.Result + stderr.Result);
    }

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "OrderDistribution.slnx")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException($"No OrderDistribution.slnx above {AppContext.BaseDirectory}");
    }
}
