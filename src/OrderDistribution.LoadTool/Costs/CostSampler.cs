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
    private readonly TimeProvider _time;
    private readonly PeriodicSampler<Dictionary<int, ProcStat>> _sampler;

    private CostSampler(IReadOnlyList<Component> components, string proc, TimeProvider time)
    {
        _components = components;
        _proc = proc;
        _time = time;
        _sampler = new(_ => Task.FromResult(Read()), Interval, time);
    }

    /// <summary>Starts sampling now; none when there is nothing to sample.</summary>
    public static CostSampler? Start(IReadOnlyList<Component> components, string proc = "/proc",
        TimeProvider? time = null) =>
        components.Count == 0 ? null : new CostSampler(components, proc, time ?? TimeProvider.System);

    /// <summary>Ends the window now and says what each component spent in it.</summary>
    public async Task<BurstCost> StopAsync(ContainerAppsPrices? prices)
    {
        var samples = await _sampler.StopAsync();
        List<(DateTimeOffset At, Dictionary<int, ProcStat> Stats)> taken =
            [.. samples.Taken, (_time.GetUtcNow(), Read())];
        var costs = _components.Select(c => new ComponentCost(
            c.Name,
            c.Role,
            c.Pids.Sum(pid =>
                CpuSeconds(taken.Select(t => t.Stats.GetValueOrDefault(pid)).OfType<ProcStat>().ToList())),
            taken.Max(t => c.Pids.Sum(pid => t.Stats.GetValueOrDefault(pid)?.ResidentBytes ?? 0)) / 1024.0 / 1024.0))
            .ToList();
        return new BurstCost(costs, (taken[^1].At - taken[0].At).TotalSeconds, prices);
    }

    /// <summary>What a process spent between its first sample and its last.</summary>
    private static double CpuSeconds(List<ProcStat> samples) =>
        samples.Count == 0 ? 0 : (samples[^1].Cpu - samples[0].Cpu).TotalSeconds;

    /// <summary>Each component's processes that are still there.</summary>
    private Dictionary<int, ProcStat> Read() =>
        _components.SelectMany(c => c.Pids).Distinct()
            .Select(pid => (Pid: pid, Stat: ProcStat.Read(_proc, pid)))
            .Where(p => p.Stat is not null)
            .ToDictionary(p => p.Pid, p => p.Stat!);

    public ValueTask DisposeAsync() => _sampler.DisposeAsync();
}
