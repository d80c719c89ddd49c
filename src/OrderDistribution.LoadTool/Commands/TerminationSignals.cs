using System.Runtime.InteropServices;

namespace OrderDistribution.LoadTool.Commands;

/// <summary>
/// The tool's answer to TERM and Ctrl+C (SIGINT): the first cancels the command, which stops what it started (the
/// trio, its Azurite) on its way out; a second signal, or a command still running <see cref="Grace"/> after the
/// first, ends the process at once through <c>exit</c>, whose process-exit handlers stop any Azurite still running
/// (<see cref="SidecarEmulator.Storage.Azurite"/>). The tool owns these signals: System.CommandLine's own handling,
/// which returns from Main after 2 s while the command still unwinds, is off.
/// </summary>
internal sealed class TerminationSignals : IDisposable
{
    /// <summary>How long the command has to stop after the first signal: well inside 10 s with the exit's
    /// own.</summary>
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(7);

    private readonly CancellationTokenSource _cancel = new();
    private readonly TimeSpan _grace;
    private readonly Action<int> _exit;
    private readonly List<PosixSignalRegistration> _registrations = [];
    private Timer? _deadline;
    private int _received;

    /// <param name="exit">Ends the process with an exit code (<see cref="Environment.Exit"/>; tests record it).</param>
    public TerminationSignals(TimeSpan grace, Action<int> exit)
    {
        _grace = grace;
        _exit = exit;
    }

    /// <summary>Cancelled at the first signal.</summary>
    public CancellationToken Token => _cancel.Token;

    /// <summary>The exit code of the first signal received (128 + its number), or null.</summary>
    public int? ExitCode { get; private set; }

    /// <summary>Takes TERM and SIGINT from the runtime's default handling (and from the in-process apps'
    /// hosts).</summary>
    public static TerminationSignals Register(Action<int> exit)
    {
        var signals = new TerminationSignals(Grace, exit);
        foreach (var signal in new[] { PosixSignal.SIGTERM, PosixSignal.SIGINT })
        {
            signals._registrations.Add(PosixSignalRegistration.Create(signal, context =>
            {
                context.Cancel = true;
                signals.Receive(context.Signal);
            }));
        }

        return signals;
    }

    /// <summary>What one signal does: the first cancels and starts the deadline, any later one exits.</summary>
    public void Receive(PosixSignal signal)
    {
        var code = signal == PosixSignal.SIGINT ? 130 : 143;
        if (Interlocked.Increment(ref _received) > 1)
        {
            _exit(ExitCode ?? code);
            return;
        }

        ExitCode = code;
        _deadline = new Timer(_ => _exit(code), null, _grace, Timeout.InfiniteTimeSpan);
        // Off the signal's thread: cancellation callbacks may take a while, and a second signal must be heard.
        _ = Task.Run(_cancel.Cancel);
    }

    public void Dispose()
    {
        _registrations.ForEach(r => r.Dispose());
        _deadline?.Dispose();
        _cancel.Dispose();
    }
}
