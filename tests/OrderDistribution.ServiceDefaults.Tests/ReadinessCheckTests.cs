using System.Diagnostics;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults.Tests;

/// <summary>
/// How <see cref="ReadinessMonitor"/> checks: each probe within the timeout, even one that ignores its token, and
/// once an interval, not back to back.
/// </summary>
public sealed class ReadinessCheckTests
{
    [Fact]
    public async Task A_probe_that_never_answers_makes_the_app_not_ready_naming_the_timeout_while_others_answer()
    {
        var state = new ReadinessState();
        var hung = new Probe("store", _ => new TaskCompletionSource().Task);
        var fine = new Probe("sidecar", _ => Task.CompletedTask);
        using var monitor = Monitor(state, TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(250), hung, fine);

        await monitor.StartAsync(TestContext.Current.CancellationToken);
        var clock = Stopwatch.StartNew();
        while (fine.Checks < 3 && clock.Elapsed < TimeSpan.FromSeconds(10))
        {
            await Task.Delay(50, TestContext.Current.CancellationToken);
        }

        var (ready, described) = (state.IsReady, state.Describe());
        await monitor.StopAsync(TestContext.Current.CancellationToken);

        Assert.True(fine.Checks >= 3, $"checked {fine.Checks} times in 10 s: the hung probe held the checks up");
        Assert.False(ready);
        Assert.Equal("store: no answer within 0.25 s", described);
    }

    [Fact]
    public async Task The_probes_are_checked_once_an_interval_not_back_to_back()
    {
        var probe = new Probe("store", _ => Task.CompletedTask);
        using var monitor =
            Monitor(new ReadinessState(), TimeSpan.FromMilliseconds(200), TimeSpan.FromSeconds(1), probe);

        await monitor.StartAsync(TestContext.Current.CancellationToken);
        var clock = Stopwatch.StartNew();
        await Task.Delay(1_000, TestContext.Current.CancellationToken);
        await monitor.StopAsync(TestContext.Current.CancellationToken);

        // A busy machine checks less often, never more: one at start, then one each 200 ms at most.
        var most = (int)(clock.Elapsed / TimeSpan.FromMilliseconds(200)) + 2;
        Assert.InRange(probe.Checks, 1, most);
    }

    private static ReadinessMonitor Monitor(ReadinessState state, TimeSpan interval, TimeSpan timeout,
        params IReadinessProbe[] probes) =>
        new(probes, state, Options.Create(new ReadinessOptions { Interval = interval, Timeout = timeout }),
            new RecordedLog<ReadinessMonitor>());

    private sealed class Probe(string name, Func<CancellationToken, Task> check) : IReadinessProbe
    {
        private int _checks;

        public string Name => name;

        public int Checks => Volatile.Read(ref _checks);

        public Task CheckAsync(CancellationToken cancellationToken)
        {
            Interlocked.Increment(ref _checks);
            return check(cancellationToken);
        }
    }
}
