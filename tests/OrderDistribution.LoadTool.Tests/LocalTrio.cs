using System.Runtime.CompilerServices;
using System.Diagnostics;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>Skips where the real Dapr sidecar or its local parts are not installed, saying which is missing.</summary>
public sealed class RequiresLocalDaprTheoryAttribute : TheoryAttribute
{
    public RequiresLocalDaprTheoryAttribute([CallerFilePath] string? sourceFilePath = null, [CallerLineNumber] int sourceLineNumber = -1)
        : base(sourceFilePath, sourceLineNumber)
    {
        if (LocalTrio.MissingPrerequisite() is { } missing)
        {
            Skip = $"needs a real Dapr sidecar and its local parts: {missing}";
        }
    }
}

/// <summary>The three apps with real sidecars, started by scripts/run-local.sh as a user would.</summary>
public sealed class LocalTrio : IAsyncDisposable
{
    private static readonly string[] HealthEndpoints =
    [
        "http://127.0.0.1:3501/v1.0/healthz", "http://127.0.0.1:3502/v1.0/healthz", "http://127.0.0.1:3503/v1.0/healthz",
        "http://127.0.0.1:5001/health", "http://127.0.0.1:5002/health", "http://127.0.0.1:5003/health",
    ];

    private readonly Process _process;

    private LocalTrio(Process process) => _process = process;

    public static string? MissingPrerequisite()
    {
        var daprd = Path.Combine(Environment.GetEnvironmentVariable("DAPR_INSTALL_DIR")
                                 ?? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".dapr"), "bin", "daprd");
        return ProgramPath.Find("dapr") is null ? "the Dapr CLI (dapr) is not on PATH"
            : !File.Exists(daprd) ? $"the Dapr runtime is not installed at {daprd} (dapr init --slim)"
            : ProgramPath.Find("redis-server") is null ? "redis-server is not on PATH"
            : !File.Exists(Path.Combine(RepositoryRoot.Path, ".tools", "node_modules", ".bin", "azurite")) ? "Azurite is not installed (scripts/install-tools.sh)"
            : null;
    }

    /// <summary>Starts the trio in its own process group, so that stopping it stops everything it started.</summary>
    public static async Task<LocalTrio> StartAsync(string model, string mode, TimeSpan timeout)
    {
        var start = new ProcessStartInfo("setsid") { WorkingDirectory = RepositoryRoot.Path, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in new[] { "bash", "scripts/run-local.sh", model, mode })
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var trio = new LocalTrio(process);
        await trio.WaitUntilHealthyAsync(timeout);
        return trio;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            // Ctrl+C to the whole group: dapr run stops the apps and sidecars, the script its Redis and Azurite.
            using (var interrupt = Process.Start("kill", ["-INT", "--", $"-{_process.Id}"]))
            {
                await interrupt.WaitForExitAsync();
            }

            using var grace = new CancellationTokenSource(TimeSpan.FromSeconds(30));
            try
            {
                await _process.WaitForExitAsync(grace.Token);
            }
            catch (OperationCanceledException)
            {
                _process.Kill(entireProcessTree: true);
            }
        }

        _process.Dispose();
    }

    private async Task WaitUntilHealthyAsync(TimeSpan timeout)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
        var deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"scripts/run-local.sh exited with {_process.ExitCode} before the trio was healthy.");
            }

            var healthy = await Task.WhenAll(HealthEndpoints.Select(async url =>
            {
                try
                {
                    return (await http.GetAsync(new Uri(url))).IsSuccessStatusCode;
                }
                catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
                {
                    return false;
                }
            }));
            if (healthy.All(h => h))
            {
                return;
            }

            await Task.Delay(1_000);
        }

        throw new TimeoutException($"The trio was not healthy within {timeout}.");
    }
}
