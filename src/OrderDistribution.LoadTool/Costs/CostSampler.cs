using System.Diagnostics;

namespace OrderDistribution.LoadTool.Costs;

/// <summary>
/// Samples the components of a local run over a burst's window: each process's CPU time at the start and the end,
/// and its resident memory every <see cref="Interval"/> (the peak kept). Reading /proc costs well under a millisecond
/// per sample; a process that ends in the window counts what it had spent at its last sample.
/// </summary>
public sealed class CostSampler : IAsyncDisposable
{
    public static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(500);

    private readonly IReadOnlyList<Component> _components;
    private readonly string _proc;
    private readonly Dictionary<int, TimeSpan> _first = [];
    private readonly Dictionary<int, TimeSpan> _last = [];
    private readonly Dictionary<string, long> _peak = [];
    private readonly Stopwatch _window = Stopwatch.StartNew();
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _sampling;

    private CostSampler(IReadOnlyList<Component> components, string proc)
    {
        _components = components;
        _proc = proc;
        Sample();
        _sampling = SampleAsync();
    }

    /// <summary>Starts sampling now; none when there is nothing to sample.</summary>
    public static CostSampler? Start(IReadOnlyList<Component> components, string proc = "/proc") =>
        components.Count == 0 ? null : new CostSampler(components, proc);

    /// <summary>Ends the window now and says what each component spent in it.</summary>
    public async Task<BurstCost> StopAsync(ContainerAppsPrices? prices)
    {
        await _stop.CancelAsync();
        await _sampling;
        Sample();
        var window = _window.Elapsed;
        var costs = _components.Select(c => new ComponentCost(
            c.Name,
            c.Role,
            c.Pids.Sum(pid => (_last.GetValueOrDefault(pid) - _first.GetValueOrDefault(pid)).TotalSeconds),
            _peak.GetValueOrDefault(c.Name) / 1024.0 / 1024.0)).ToList();
        return new BurstCost(costs, window.TotalSeconds, prices);
    }

    private async Task SampleAsync()
    {
        using var timer = new PeriodicTimer(Interval);
        try
        {
            while (await timer.WaitForNextTickAsync(_stop.Token))
            {
                Sample();
            }
        }
        catch (OperationCanceledException)
        {
        }
    }

    private void Sample()
    {
        lock (_first)
        {
            foreach (var component in _components)
            {
                long resident = 0;
                foreach (var pid in component.Pids)
                {
                    if (ProcStat.Read(_proc, pid) is not { } stat)
                    {
                        continue;
                    }

                    _first.TryAdd(pid, stat.Cpu);
                    _last[pid] = stat.Cpu;
                    resident += stat.ResidentBytes;
                }

                _peak[component.Name] = Math.Max(_peak.GetValueOrDefault(component.Name), resident);
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _sampling;
        _stop.Dispose();
    }
}
