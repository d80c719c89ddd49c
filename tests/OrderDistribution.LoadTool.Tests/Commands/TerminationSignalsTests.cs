using System.Collections.Concurrent;
using System.Runtime.InteropServices;
using OrderDistribution.LoadTool.Commands;

namespace OrderDistribution.LoadTool.Tests.Commands;

/// <summary>
/// What the tool does with TERM and Ctrl+C (the exits recorded instead of made): the first stops the command, a
/// second, or a command that does not stop in time, ends the process.
/// </summary>
public sealed class TerminationSignalsTests
{
    private readonly ConcurrentQueue<int> _exits = new();

    [Fact]
    public async Task The_first_signal_cancels_the_command_and_leaves_it_time_to_stop()
    {
        using var signals = new TerminationSignals(TimeSpan.FromMinutes(1), _exits.Enqueue);

        signals.Receive(PosixSignal.SIGTERM);

        await WaitUntilAsync(() => signals.Token.IsCancellationRequested);
        Assert.Equal(143, signals.ExitCode);
        Assert.Empty(_exits);
    }

    [Fact]
    public void A_second_signal_ends_the_process_at_once_with_the_first_ones_code()
    {
        using var signals = new TerminationSignals(TimeSpan.FromMinutes(1), _exits.Enqueue);

        signals.Receive(PosixSignal.SIGINT);
        signals.Receive(PosixSignal.SIGTERM);

        Assert.Equal([130], _exits);
    }

    [Fact]
    public async Task A_command_still_running_when_its_time_to_stop_is_up_is_ended()
    {
        using var signals = new TerminationSignals(TimeSpan.FromMilliseconds(200), _exits.Enqueue);

        signals.Receive(PosixSignal.SIGTERM);

        await WaitUntilAsync(() => !_exits.IsEmpty);
        Assert.Equal([143], _exits);
    }

    private static async Task WaitUntilAsync(Func<bool> condition)
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (!condition() && DateTime.UtcNow < deadline)
        {
            await Task.Delay(20);
        }

        Assert.True(condition(), "not within 30 s");
    }
}
