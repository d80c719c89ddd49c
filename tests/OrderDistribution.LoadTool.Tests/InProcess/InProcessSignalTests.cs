using System.Collections.Concurrent;
using System.Diagnostics;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.InProcess;

/// <summary>
/// TERM or Ctrl+C to the real <c>in-process</c> program mid-burst, as a user sends it: the command, its trio and the
/// Azurite it started all end within 10 s, nothing left running; a second signal ends them at once.
/// </summary>
public sealed class InProcessSignalTests(ITestOutputHelper output) : IDisposable
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(10);

    private readonly TempFolder _folder = new("in-process-signal-");
    private readonly ConcurrentQueue<string> _lines = new();

    [Theory]
    [InlineData("TERM", 143)]
    [InlineData("INT", 130)]
    public async Task One_signal_mid_burst_ends_the_command_and_all_it_started_within_10_s(string signal, int code)
    {
        using var tool = await StartMidBurstAsync();
        var started = ProcessProbe.Descendants(tool.Id);

        var clock = Stopwatch.StartNew();
        ProcessProbe.Signal(tool.Id, signal);
        var ended = await ExitsAsync(tool, Limit);
        output.WriteLine($"{signal}: the tool ended after {clock.Elapsed.TotalSeconds:0.0} s");

        Assert.True(ended, $"in-process still runs {Limit.TotalSeconds} s after one {signal}:\n{Printed}");
        Assert.True(tool.ExitCode == code, $"exit {tool.ExitCode}, not {code}:\n{Printed}");
        await AssertEndedAsync(started);
    }

    [Fact]
    public async Task A_second_signal_ends_the_command_and_all_it_started_at_once()
    {
        using var tool = await StartMidBurstAsync();
        var started = ProcessProbe.Descendants(tool.Id);

        // Held still, the tool takes both signals at once when it goes on, so the first cannot end the command
        // before the second arrives; two of one kind would merge into one while pending.
        ProcessProbe.Signal(tool.Id, "STOP");
        ProcessProbe.Signal(tool.Id, "INT");
        ProcessProbe.Signal(tool.Id, "TERM");
        ProcessProbe.Signal(tool.Id, "CONT");
        var ended = await ExitsAsync(tool, Limit);

        Assert.True(ended, $"in-process still runs {Limit.TotalSeconds} s after two signals:\n{Printed}");
        Assert.True(_lines.Contains("Stopped at once, and what this command started with it."),
            $"the second signal did not end it at once:\n{Printed}");
        Assert.True(tool.ExitCode is 130 or 143, $"exit {tool.ExitCode}, not 130 or 143:\n{Printed}");
        await AssertEndedAsync(started);
    }

    public void Dispose() => _folder.Dispose();

    private string Printed => string.Join('\n', _lines);

    /// <summary>
    /// in-process on 20,000 orders into an Azurite it starts, once the burst is on the ingress queue and the trio
    /// stores it.
    /// </summary>
    private async Task<Process> StartMidBurstAsync()
    {
        Assert.SkipWhen(Azurite.MissingPrerequisite() is not null, Azurite.MissingPrerequisite() ?? "");
        var scheduled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var tool = Cli.StartProgram(line =>
        {
            _lines.Enqueue(line);
            if (line.StartsWith("Scheduled burst", StringComparison.Ordinal))
            {
                scheduled.TrySetResult();
            }
        }, "in-process", "--count", "20000", "--timeout", "600", "--results", Path.Combine(_folder.Path, "LOG.jsonl"));
        try
        {
            await scheduled.Task.WaitAsync(TimeSpan.FromSeconds(120), TestContext.Current.CancellationToken);
            Assert.SkipUnless(_lines.Any(l => l.Contains("(Azurite started for this run)", StringComparison.Ordinal)),
                "An Azurite answers at the local Azurite's address, so in-process started none of its own.");
            await Task.Delay(TimeSpan.FromSeconds(2), TestContext.Current.CancellationToken);
            var azurite = ProcessProbe.Descendants(tool.Id)
                .Where(pid => ProcessProbe.CommandLine(pid).Contains("azurite", StringComparison.Ordinal));
            Assert.True(azurite.Any(), $"no Azurite among what in-process started:\n{Printed}");
            return tool;
        }
        catch
        {
            Stop(tool);
            throw;
        }
    }

    /// <summary>Each of <paramref name="started"/> has ended (killed, it may take a moment to go).</summary>
    private static async Task AssertEndedAsync(IReadOnlyList<int> started)
    {
        var running = new List<string>();
        foreach (var pid in started)
        {
            if (!await ProcessProbe.EndsAsync(pid, TimeSpan.FromSeconds(2)))
            {
                running.Add($"{pid} {ProcessProbe.CommandLine(pid)}");
                ProcessProbe.Signal(pid, "KILL");
            }
        }

        Assert.True(running.Count == 0, $"still running after in-process ended: {string.Join("; ", running)}");
    }

    /// <summary>Whether <paramref name="tool"/> exits within <paramref name="limit"/>; stopped for good if
    /// not.</summary>
    private static async Task<bool> ExitsAsync(Process tool, TimeSpan limit)
    {
        if (await ProcessProbe.ExitsAsync(tool, limit))
        {
            return true;
        }

        Stop(tool);
        return false;
    }

    private static void Stop(Process tool)
    {
        var started = ProcessProbe.Descendants(tool.Id);
        tool.Kill(entireProcessTree: true);
        foreach (var pid in started.Where(ProcessProbe.Alive))
        {
            ProcessProbe.Signal(pid, "KILL");
        }

        tool.Dispose();
    }
}
