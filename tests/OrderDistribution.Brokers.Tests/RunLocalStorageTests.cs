using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;
using OrderDistribution.SidecarEmulator.Storage;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Brokers.Tests;

/// <summary>
/// scripts/run-local.sh's own Azurite (<c>--storage-only</c>, what compare-local.sh keeps for a whole comparison), on
/// free ports and a data folder of the test's: stopping the script stops its Azurite for good. Azurite 3.37 closes its
/// services on the first TERM and stays alive until a second one.
/// </summary>
public partial class RunLocalStorageTests(ITestOutputHelper output)
{
    [Fact]
    public async Task A_terminated_run_local_leaves_no_azurite_running()
    {
        Assert.SkipWhen(Azurite.MissingPrerequisite() is not null, Azurite.MissingPrerequisite() ?? "");
        // Where the script looks (scripts/lib/azurite.sh): the repository's .tools/, else PATH.
        Assert.SkipWhen(
            !File.Exists(Path.Combine(RepositoryRoot.Path, ".tools", "node_modules", ".bin", "azurite"))
            && ProgramPath.Find("azurite") is null,
            $"Azurite (the azurite command, which run-local.sh starts) is neither in {RepositoryRoot.Path}/.tools/ " +
            "nor on PATH: run scripts/install-tools.sh, or npm install -g azurite");
        var folder = Directory.CreateTempSubdirectory("run-local-storage-").FullName;
        var blobPort = Azurite.FreePort();
        var start = new ProcessStartInfo("bash")
        {
            WorkingDirectory = RepositoryRoot.Path,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            Environment =
            {
                ["AZURITE_BLOB_PORT"] = blobPort.ToString(CultureInfo.InvariantCulture),
                ["AZURITE_QUEUE_PORT"] = Azurite.FreePort().ToString(CultureInfo.InvariantCulture),
                ["AZURITE_TABLE_PORT"] = Azurite.FreePort().ToString(CultureInfo.InvariantCulture),
                ["AZURITE_LOCATION"] = Path.Combine(folder, "data"),
                ["AZURITE_LOG"] = Path.Combine(folder, "azurite.log"),
            },
        };
        start.ArgumentList.Add("scripts/run-local.sh");
        start.ArgumentList.Add("--storage-only");
        using var script = Process.Start(start)!;
        var lines = new List<string>();
        var started = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        script.OutputDataReceived += (_, line) =>
        {
            if (line.Data is not { } text)
            {
                return;
            }

            lock (lines)
            {
                lines.Add(text);
            }

            if (StartedLine().Match(text) is { Success: true } match)
            {
                started.TrySetResult(int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture));
            }
        };
        script.ErrorDataReceived += (_, line) =>
        {
            lock (lines)
            {
                lines.Add(line.Data ?? "");
            }
        };
        script.BeginOutputReadLine();
        script.BeginErrorReadLine();
        var azurite = 0;
        try
        {
            azurite = await started.Task.WaitAsync(TimeSpan.FromSeconds(90), TestContext.Current.CancellationToken);
            output.WriteLine($"run-local.sh {script.Id} started Azurite {azurite}");
            // Azurite lingers after the first TERM once it has served a request, as in any local run.
            using (var http = new HttpClient())
            {
                using var answer = await http.GetAsync(
                    new Uri(string.Create(
                        CultureInfo.InvariantCulture, $"http://127.0.0.1:{blobPort}/{Azurite.AccountName}?comp=list")),
                    TestContext.Current.CancellationToken);
                output.WriteLine($"Azurite answered {(int)answer.StatusCode}");
            }

            ProcessProbe.Signal(script.Id, "TERM");
            Assert.True(await ProcessProbe.ExitsAsync(script, TimeSpan.FromSeconds(30)),
                "run-local.sh did not end within 30 s of TERM");
            var gone = await ProcessProbe.EndsAsync(azurite, TimeSpan.FromSeconds(5));
            Assert.True(gone,
                $"Azurite {azurite} still runs after run-local.sh ended; the script " +
                $"printed:\n{string.Join('\n', lines)}");
        }
        finally
        {
            if (!script.HasExited)
            {
                script.Kill(entireProcessTree: true);
            }

            if (azurite > 0 && ProcessProbe.Alive(azurite))
            {
                ProcessProbe.Signal(azurite, "KILL");
            }

            Directory.Delete(folder, recursive: true);
        }
    }

    [GeneratedRegex(@"^Azurite: started \(pid (\d+)")]
    private static partial Regex StartedLine();
}
