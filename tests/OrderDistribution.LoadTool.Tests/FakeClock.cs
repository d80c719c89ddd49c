using System.Diagnostics;
using Microsoft.Extensions.Time.Testing;

namespace OrderDistribution.LoadTool.Tests;

/// <summary>Runs code that waits on a <see cref="FakeTimeProvider"/>, moving that clock on while it waits.</summary>
internal static class FakeClock
{
    /// <summary>
    /// Runs <paramref name="work"/>, advancing <paramref name="clock"/> by <paramref name="step"/> every few real
    /// milliseconds until it ends.
    /// </summary>
    /// <returns>What the work returned, and how long it took by the real clock.</returns>
    public static async Task<(T Result, TimeSpan RealTime)> AdvancingAsync<T>(
        FakeTimeProvider clock, TimeSpan step, Func<Task<T>> work)
    {
        var real = Stopwatch.StartNew();
        var running = work();
        while (!running.IsCompleted)
        {
            clock.Advance(step);
            await Task.WhenAny(running, Task.Delay(10));
        }

        return (await running, real.Elapsed);
    }
}
