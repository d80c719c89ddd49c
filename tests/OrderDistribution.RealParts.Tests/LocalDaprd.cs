using System.Diagnostics;

namespace OrderDistribution.RealParts.Tests;

/// <summary>
/// The daprd binary as a local process: started with its output in a log file of its own, or asked its version.
/// </summary>
internal static class LocalDaprd
{
    /// <summary>
    /// What <c>daprd --version</c> prints (e.g. 1.14.4), asked once per binary; "version unknown" if it prints no
    /// version within 10 s.
    /// </summary>
    public static string VersionOf(string? daprd)
    {
        if (daprd is null)
        {
            return "missing";
        }

        lock (Versions)
        {
            if (!Versions.TryGetValue(daprd, out var version))
            {
                Versions[daprd] = version = AskVersion(daprd);
            }

            return version;
        }
    }

    private static readonly Dictionary<string, string> Versions = [];

    private static string AskVersion(string daprd)
    {
        try
        {
            using var process = Process.Start(
                new ProcessStartInfo(daprd, "--version")
                {
                    RedirectStandardOutput = true,
                    RedirectStandardError = true
                })!;
            var output = process.StandardOutput.ReadToEndAsync();
            if (!process.WaitForExit(TimeSpan.FromSeconds(10)))
            {
                process.Kill(entireProcessTree: true);
                return "version unknown";
            }

            var version = output.Result.Trim().Split('\n')[0];
            return version.Length > 0 && char.IsAsciiDigit(version[0]) ? version : "version unknown";
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "version unknown";
        }
    }

    public static (RunningSidecar Sidecar, Process Process) Start(string daprd, SidecarLaunch launch,
        SidecarPorts ports, string earlier)
    {
        var start = new ProcessStartInfo(daprd)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = RepositoryRoot.Path,
        };
        foreach (var argument in DaprdArguments.For(launch, "127.0.0.1", "127.0.0.1", ports, launch.ResourcesFolders,
            launch.ConfigFile))
        {
            start.ArgumentList.Add(argument);
        }

        if (launch.ApiToken is not null)
        {
            start.Environment["DAPR_API_TOKEN"] = launch.ApiToken;
        }

        var logFolder = Directory.CreateTempSubdirectory($"daprd-{launch.AppId}-").FullName;
        var log = Path.Combine(logFolder, "daprd.log");
        var writer = TextWriter.Synchronized(new StreamWriter(log) { AutoFlush = true });
        writer.Write(earlier);
        var process = Process.Start(start) ?? throw new InvalidOperationException($"{daprd} did not start.");
        process.OutputDataReceived += (_, line) => { if (line.Data is not null) writer.WriteLine(line.Data); };
        process.ErrorDataReceived += (_, line) => { if (line.Data is not null) writer.WriteLine(line.Data); };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var sidecar = new RunningSidecar(
            new Uri($"http://127.0.0.1:{ports.Http}"), new Uri($"http://127.0.0.1:{ports.Grpc}"),
            async () =>
            {
                using var reader = new StreamReader(
                    new FileStream(log, FileMode.Open, FileAccess.Read, FileShare.ReadWrite));
                return await reader.ReadToEndAsync();
            },
            async () =>
            {
                if (!process.HasExited)
                {
                    return null;
                }

                // Its last lines too: the wait ends once its output is read to the end.
                await process.WaitForExitAsync().WaitAsync(StopTimeout);
                return $"exited with code {process.ExitCode}";
            },
            async () =>
            {
                if (!process.HasExited)
                {
                    process.Kill(entireProcessTree: true);
                }

                await process.WaitForExitAsync().WaitAsync(StopTimeout);
                process.Dispose();
                await writer.DisposeAsync();
                Directory.Delete(logFolder, recursive: true);
            });
        return (sidecar, process);
    }

    /// <summary>How long a killed or exited daprd may take to end and hand over its last output.</summary>
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(30);
}
