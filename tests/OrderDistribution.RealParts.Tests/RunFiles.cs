using System.Diagnostics;
using OrderDistribution.Messaging;

namespace OrderDistribution.RealParts.Tests;

/// <summary>The run file a user's <c>scripts/run-local.sh model</c> runs, written by that script itself.</summary>
public static class RunFiles
{
    /// <returns>The full path of the run file (under .dapr/, git-ignored).</returns>
    public static async Task<string> RenderAsync(MessagingModel model)
    {
        var start = new ProcessStartInfo("bash")
        {
            WorkingDirectory = RepositoryRoot.Path,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            ArgumentList = { "scripts/run-local.sh", "--render-only", model.Text() },
        };
        using var script = Process.Start(start)!;
        var output = script.StandardOutput.ReadToEndAsync();
        var errors = script.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await script.WaitForExitAsync(timeout.Token);
        var path = (await output).Trim();
        return script.ExitCode == 0 && File.Exists(path)
            ? path
            : throw new InvalidOperationException(
                $"scripts/run-local.sh --render-only exited with {script.ExitCode}: {await errors}");
    }
}
