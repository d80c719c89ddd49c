namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The Windows form of every azd hook (azure.yaml: pwsh running scripts/hook.ps1) on the PowerShell the repository
/// pins: it runs the same POSIX script as the posix form, with the sh it finds as Git for Windows installs it.
/// </summary>
public class HookTests
{
    public static TheoryData<string> Hooks() =>
        [.. Yaml.LoadMapping(Repo.Read("azure.yaml")).Mapping("hooks")!.Children.Keys.Select(k => k.ToString())];

    [RequiresPowerShellTheory]
    [MemberData(nameof(Hooks))]
    public void The_windows_form_of_each_hook_does_what_its_posix_form_does(string hook)
    {
        // az not signed in: each hook's script says what it did not do, without Azure.
        var forms = Yaml.LoadMapping(Repo.Read("azure.yaml")).Mapping("hooks")!.Mapping(hook)!;
        using var posixAzure = new FakeAzure().Fail("account show", "Please run 'az login' to setup account.");
        using var windowsAzure = new FakeAzure().Fail("account show", "Please run 'az login' to setup account.");
        // azd writes a hook's inline text to a script of its own and runs it with the hook's shell.
        var posixScript = posixAzure.WriteFile("hook.sh", forms.Mapping("posix")!.Scalar("run")! + "\n");
        var windowsScript = windowsAzure.WriteFile("hook.ps1", forms.Mapping("windows")!.Scalar("run")! + "\n");

        var posix = posixAzure.Run("sh", posixScript);
        var windows = windowsAzure.Run(TimeSpan.FromSeconds(180), PowerShell.Dotnet, "tool", "run", "pwsh", "--",
            "-NoProfile", "-File", windowsScript);

        Assert.NotEqual("", posix.Output.Trim());
        Assert.Equal(posix.Output, windows.Output);
        Assert.Equal(posix.ExitCode, windows.ExitCode);
    }

    [RequiresPowerShellFact]
    public void The_windows_form_passes_the_scripts_arguments_and_returns_its_exit_code()
    {
        // pwsh ends an inline script with 0 whatever the script it called exited with: the hook's text passes it on.
        var run = Yaml.LoadMapping(Repo.Read("azure.yaml"))
            .Mapping("hooks")!.Mapping("postdeploy")!.Mapping("windows")!.Scalar("run")!;
        using var folder = new HookFolder();
        var inline = folder.Write("inline.ps1",
            run.Replace("./scripts/wait-ready.sh", $"{folder.Script} first second", StringComparison.Ordinal) + "\n");

        var (exitCode, output) = PowerShell.Run([], "-File", inline);

        Assert.Equal("ran with first second", output.Trim());
        Assert.Equal(3, exitCode);
    }

    [RequiresPowerShellFact]
    public void Without_sh_on_path_it_runs_the_sh_that_git_for_windows_puts_beside_git()
    {
        // Git for Windows puts git in <Git>/cmd, on PATH, and sh.exe in <Git>/bin, not on PATH.
        using var folder = new HookFolder();
        folder.Program("Git/cmd/git", "#!/bin/sh\n");
        folder.Sh("Git/bin/sh.exe");

        var (exitCode, output) = PowerShell.Run([$"PATH={folder.PathOf("Git/cmd")}"],
            "-File", "scripts/hook.ps1", folder.Script, "first", "second");

        Assert.Equal("ran with first second", output.Trim());
        Assert.Equal(3, exitCode);
    }

    [RequiresPowerShellFact]
    public void Without_sh_or_git_on_path_it_runs_the_sh_under_program_files()
    {
        using var folder = new HookFolder();
        folder.Sh("Git/bin/sh.exe");

        var (exitCode, output) = PowerShell.Run([$"PATH={folder.PathOf("empty")}", $"ProgramFiles={folder.Root}"],
            "-File", "scripts/hook.ps1", folder.Script, "first", "second");

        Assert.Equal("ran with first second", output.Trim());
        Assert.Equal(3, exitCode);
    }

    [RequiresPowerShellFact]
    public void With_no_sh_anywhere_it_says_what_to_install_and_fails()
    {
        using var folder = new HookFolder();

        var (exitCode, output) = PowerShell.Run([$"PATH={folder.PathOf("empty")}", $"ProgramFiles={folder.Root}"],
            "-File", "scripts/hook.ps1", folder.Script);

        Assert.Equal(
            $"hook: no sh to run {folder.Script} with: install Git for Windows (it brings sh), or run azd from WSL",
            output.Trim());
        Assert.Equal(1, exitCode);
    }

    /// <summary>A throwaway folder holding a POSIX script that echoes its first two arguments and exits 3.</summary>
    private sealed class HookFolder : IDisposable
    {
        public string Root { get; } = Directory.CreateTempSubdirectory("hook-").FullName;

        public string Script => PathOf("hook.sh");

        public HookFolder() => Write("hook.sh", "echo \"ran with $1 $2\"\nexit 3\n");

        public string PathOf(string relative) => Path.Combine(Root, relative);

        public string Write(string relative, string text)
        {
            var file = PathOf(relative);
            Directory.CreateDirectory(Path.GetDirectoryName(file)!);
            File.WriteAllText(file, text);
            return file;
        }

        public void Program(string relative, string script)
        {
            var file = Write(relative, script);
            if (!OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(file, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
            }
        }

        /// <summary>The machine's own sh under another name, as Git for Windows' sh.exe.</summary>
        public void Sh(string relative)
        {
            var file = PathOf(relative);
            Directory.CreateDirectory(Path.GetDirectoryName(file)!);
            File.CreateSymbolicLink(file, Repo.FindOnPath("sh") ?? "/bin/sh");
        }

        public void Dispose() => Directory.Delete(Root, recursive: true);
    }
}
