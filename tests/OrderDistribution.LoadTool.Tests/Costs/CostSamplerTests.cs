using System.Globalization;
using Microsoft.Extensions.Time.Testing;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Costs;

/// <summary>What the components spend over a window, read from a /proc written by the test on a fake clock.</summary>
public sealed class CostSamplerTests : IDisposable
{
    private readonly TempFolder _proc = new("order-load-proc");

    [Fact]
    public async Task Cpu_is_between_first_and_last_sample_memory_its_peak_and_an_ended_process_fails_nothing()
    {
        var clock = new FakeTimeProvider(new DateTimeOffset(2026, 1, 1, 12, 0, 0, TimeSpan.Zero));
        Process(10, cpuTicks: 100, residentMiB: 300);
        Process(11, cpuTicks: 50, residentMiB: 50);
        Process(20, cpuTicks: 200, residentMiB: 30);
        Component[] components =
        [
            new("distributor", ComponentRole.App, [10, 11]),
            new("distributor daprd", ComponentRole.Sidecar, [20]),
        ];
        await using var sampler = CostSampler.Start(components, _proc.Path, clock)!;

        Process(10, cpuTicks: 350, residentMiB: 100);
        Directory.Delete(Path.Combine(_proc.Path, "11"), recursive: true);
        clock.Advance(TimeSpan.FromSeconds(3));
        var cost = await sampler.StopAsync(prices: null);

        Assert.Equal(3, cost.WindowSeconds, 6);
        var app = cost.Components.Single(c => c.Role == ComponentRole.App);
        var sidecar = cost.Components.Single(c => c.Role == ComponentRole.Sidecar);
        // 10 spent 2.5 s; 11 ended with nothing spent since the first sample.
        Assert.Equal(2.5, app.CpuSeconds, 6);
        // The peak was at the first sample, 10 and 11 together.
        Assert.Equal(350, app.PeakMiB, 6);
        Assert.Equal((0.0, 30.0), (sidecar.CpuSeconds, sidecar.PeakMiB));
    }

    /// <summary>Writes the stat and status files /proc holds for <paramref name="pid"/>.</summary>
    private void Process(int pid, long cpuTicks, long residentMiB)
    {
        var folder = Directory.CreateDirectory(Path.Combine(_proc.Path, pid.ToString(CultureInfo.InvariantCulture)));
        File.WriteAllText(Path.Combine(folder.FullName, "stat"), string.Create(CultureInfo.InvariantCulture,
            $"{pid} (app) S 1 {pid} {pid} 0 -1 4194560 100 0 0 0 {cpuTicks} 0 0 0 20 0 9 0 8811 0 0"));
        File.WriteAllText(Path.Combine(folder.FullName, "status"), string.Create(CultureInfo.InvariantCulture,
            $"Name:\tapp\nVmRSS:\t{residentMiB * 1024} kB\n"));
    }

    public void Dispose() => _proc.Dispose();
}
