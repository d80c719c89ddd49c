namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// The bindings model as <c>scripts/run-local.sh --render-only bindings</c> writes it: its run file and the copy of
/// components-bindings/ that run file loads, with BINDING_CONSUMERS_PER_QUEUE consumers per queue.
/// </summary>
internal sealed class RenderedBindings : IDisposable
{
    public const string Setting = "BINDING_CONSUMERS_PER_QUEUE";

    private readonly DirectoryInfo? _copy;

    private RenderedBindings(DaprRunFile runFile, DirectoryInfo? copy)
    {
        RunFile = runFile;
        _copy = copy;
    }

    public DaprRunFile RunFile { get; }

    /// <summary>Full path of the components folder every app of the run file loads.</summary>
    public string Folder => Assert.Single(RunFile.Apps.SelectMany(a => a.ResourcesPaths).Distinct());

    public IReadOnlyList<DaprComponent> Components => DaprComponent.LoadFolder(Folder);

    public DaprResiliency Resiliency => Assert.Single(DaprResiliency.LoadFolder(Folder));

    /// <summary>Rendered in the repository, with the setting unset: what a user gets by default.</summary>
    public static RenderedBindings Default()
    {
        var (exitCode, output) = Repo.Run("env", "-u", Setting, "bash", "scripts/run-local.sh", "--render-only",
            "bindings");
        Assert.True(exitCode == 0, output);
        return new RenderedBindings(DaprRunFile.LoadFullPath(output.Trim()), null);
    }

    /// <summary>
    /// Rendered with the setting at <paramref name="consumers"/>, in a copy of the files the script reads, so that
    /// renders with other counts (tests run side by side) never meet in one folder.
    /// </summary>
    public static RenderedBindings With(string consumers)
    {
        var copy = CopyOfRepository();
        var (exitCode, output) = RunIn(copy, consumers);
        if (exitCode != 0)
        {
            copy.Delete(recursive: true);
            Assert.Fail(output);
        }

        return new RenderedBindings(DaprRunFile.LoadFullPath(output.Trim()), copy);
    }

    /// <summary>
    /// The script's exit code and output for <paramref name="consumers"/>, and whether it wrote a .dapr folder.
    /// </summary>
    public static (int ExitCode, string Output, bool WroteFiles) Try(string consumers)
    {
        var copy = CopyOfRepository();
        try
        {
            var (exitCode, output) = RunIn(copy, consumers);
            return (exitCode, output, Directory.Exists(Path.Combine(copy.FullName, ".dapr")));
        }
        finally
        {
            copy.Delete(recursive: true);
        }
    }

    public void Dispose() => _copy?.Delete(recursive: true);

    private static (int ExitCode, string Output) RunIn(DirectoryInfo copy, string consumers) =>
        Repo.Run("env", $"{Setting}={consumers}", "bash", Path.Combine(copy.FullName, "scripts/run-local.sh"),
            "--render-only", "bindings");

    private static DirectoryInfo CopyOfRepository()
    {
        var copy = Directory.CreateTempSubdirectory("rendered-bindings-");
        Repo.CopyRunLocal(copy.FullName);
        Directory.CreateDirectory(Path.Combine(copy.FullName, "components-bindings"));
        File.Copy(Repo.PathOf(DaprRunFile.Bindings), Path.Combine(copy.FullName, DaprRunFile.Bindings));
        foreach (var file in Directory.EnumerateFiles(Repo.PathOf("components-bindings")))
        {
            File.Copy(file, Path.Combine(copy.FullName, "components-bindings", Path.GetFileName(file)));
        }

        return copy;
    }
}
