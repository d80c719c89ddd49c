using System.Globalization;
using OrderDistribution.LoadTool.InProcess;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.InProcess;

/// <summary>
/// What a killed <c>in-process</c> leaves (kill -9 runs no cleanup): the Azurite it started and that Azurite's
/// temporary folder. The next <c>in-process</c> finds them, stops and removes them, and says so in one line.
/// </summary>
public sealed class InProcessLeftoverTests(ITestOutputHelper output)
{
    [Fact]
    public async Task The_azurite_and_folder_a_killed_in_process_left_are_stopped_and_removed_by_the_next_one()
    {
        Assert.SkipWhen(Azurite.MissingPrerequisite() is not null, Azurite.MissingPrerequisite() ?? "");
        using var results = new TempFolder("in-process-leftovers-");
        // No --storage: the local Azurite's address, where nothing answers, so the command starts its throwaway one.
        var killed = Cli.StartProgram("in-process", "--count", "20000",
            "--results", Path.Combine(results.Path, "LOG.jsonl"), "--timeout", "600");
        var azurite = 0;
        try
        {
            var (folder, pid) = await ThrowawayOfAsync(killed.Id, TimeSpan.FromSeconds(90));
            azurite = pid;
            killed.Kill();
            await killed.WaitForExitAsync(TestContext.Current.CancellationToken);
            Assert.True(ProcessProbe.Alive(azurite),
                $"Azurite {azurite} ended with its owner: nothing left to clean up");
            output.WriteLine($"in-process {killed.Id} killed; its Azurite {azurite} and {folder} left");

            var next = new Cli();
            var exit = await next.RunAsync(
                "in-process", "--count", "20", "--results", Path.Combine(results.Path, "LOG.jsonl"));

            Assert.True(exit == 0, next.Output);
            var said = Assert.Single(next.Output.Split('\n'),
                l => l.StartsWith("Cleaned up after in-process runs", StringComparison.Ordinal));
            output.WriteLine(said);
            Assert.Contains(
                $"run {killed.Id.ToString(CultureInfo.InvariantCulture)}: stopped its Azurite (pid " +
                $"{azurite.ToString(CultureInfo.InvariantCulture)}), removed {folder}", said, StringComparison.Ordinal);
            Assert.False(ProcessProbe.Alive(azurite), $"Azurite {azurite} still runs");
            Assert.False(Directory.Exists(folder), $"{folder} is still there");
        }
        finally
        {
            if (!killed.HasExited)
            {
                killed.Kill(entireProcessTree: true);
            }

            if (azurite > 0 && ProcessProbe.Alive(azurite))
            {
                ProcessProbe.Signal(azurite, "KILL");
            }

            killed.Dispose();
        }
    }

    /// <summary>
    /// The throwaway Azurite's folder whose owners file names <paramref name="owner"/>, once it names its Azurite too.
    /// </summary>
    private static async Task<(string Folder, int Azurite)> ThrowawayOfAsync(int owner, TimeSpan limit)
    {
        var deadline = DateTime.UtcNow + limit;
        while (DateTime.UtcNow < deadline)
        {
            foreach (var folder in Directory.EnumerateDirectories(Path.GetTempPath(),
                InProcessBurst.AzuriteFolderPrefix + "*"))
            {
                string[] lines;
                try
                {
                    lines = File.ReadAllLines(Path.Combine(folder, "owners"));
                }
                catch (IOException)
                {
                    continue;
                }

                if (lines.Length == 2
                    && lines[0]
                    .StartsWith($"{owner.ToString(CultureInfo.InvariantCulture)} ", StringComparison.Ordinal))
                {
                    return (folder, int.Parse(lines[1].Split(' ')[0], CultureInfo.InvariantCulture));
                }
            }

            await Task.Delay(100);
        }

        throw new TimeoutException($"in-process {owner} started no Azurite within {limit.TotalSeconds:0} s");
    }
}
