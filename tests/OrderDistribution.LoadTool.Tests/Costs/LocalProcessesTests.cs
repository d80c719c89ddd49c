using System.Diagnostics;
using System.Globalization;
using OrderDistribution.LoadTool.Costs;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Costs;

/// <summary>
/// The local run's processes, found from what run-local.sh recorded and measured from /proc: a stand-in for dapr run
/// starts an "app" (APP_ID in its environment, as the Dapr CLI gives it) and a "sidecar" (started with --app-id).
/// </summary>
public sealed class LocalProcessesTests : IDisposable
{
    private readonly TempFolder _folder = new("order-load-pids");
    private Process? _trio;

    [Fact]
    public async Task The_apps_and_sidecars_under_the_recorded_dapr_run_are_found_and_what_they_spend_is_measured()
    {
        Assert.SkipUnless(Directory.Exists("/proc"), "no /proc on this system");
        // The "app" waits for the go file, counts (a fixed amount of CPU, however loaded the machine), says so, and
        // sleeps; the "sidecar" only sleeps.
        var go = Path.Combine(_folder.Path, "go");
        var done = Path.Combine(_folder.Path, "done");
        _trio = StartTrio($"APP_ID=distributor sh -c 'while [ ! -e {go} ]; do sleep 0.1; done; i=0; " +
                          $"while [ $i -lt 200000 ]; do i=$((i+1)); done; touch {done}; sleep 60' & " +
                          "sh -c 'sleep 60; true' --app-id distributor & wait");
        Record("trio", _trio.Id);
        var components = await EventuallyAsync(() => LocalProcesses.Find(_folder.Path), c => c.Count == 2);

        Assert.Equal([("distributor", ComponentRole.App), ("distributor daprd", ComponentRole.Sidecar)],
            components.Select(c => (c.Name, c.Role)));
        await using var sampler = CostSampler.Start(components)!;
        await File.WriteAllTextAsync(go, "");
        await EventuallyAsync(() => File.Exists(done), d => d, TimeSpan.FromMinutes(2));
        var cost = await sampler.StopAsync(new ContainerAppsPrices(0.000024, 0.000003, "USD"));

        var app = cost.Components.Single(c => c.Role == ComponentRole.App);
        var sidecar = cost.Components.Single(c => c.Role == ComponentRole.Sidecar);
        Assert.InRange(app.CpuSeconds, 0.1, 10);
        Assert.InRange(sidecar.CpuSeconds, 0, 0.1);
        Assert.True(app.PeakMiB > 0 && sidecar.PeakMiB > 0, cost.Line());
        Assert.Equal(cost.VcpuSeconds * 0.000024 + cost.GibSeconds * 0.000003, cost.Price!.Value, 12);
    }

    [Fact]
    public void A_recorded_pid_whose_start_time_is_not_the_recorded_one_is_another_process_and_is_not_read()
    {
        Assert.SkipUnless(Directory.Exists("/proc"), "no /proc on this system");
        var self = Environment.ProcessId;
        var start = ProcStat.Read("/proc", self)!.StartTime;
        File.WriteAllText(Path.Combine(_folder.Path, "store"), $"{self} {start + 1}");
        Assert.Empty(LocalProcesses.Find(_folder.Path));

        File.WriteAllText(Path.Combine(_folder.Path, "store"),
            string.Create(CultureInfo.InvariantCulture, $"{self} {start}"));
        Assert.Equal(ComponentRole.Store, Assert.Single(LocalProcesses.Find(_folder.Path)).Role);
    }

    [Fact]
    public void A_stat_line_whose_command_name_holds_spaces_and_parentheses_is_read_from_its_last_parenthesis()
    {
        var stat = ProcStat.Parse(
            "4242 (my (odd) app) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 130 0 0 20 0 9 0 8811 0 0", 4096);

        Assert.Equal(new ProcStat(17, 8811, TimeSpan.FromSeconds(3.8), 4096), stat);
    }

    private static Process StartTrio(string script)
    {
        var start = new ProcessStartInfo("bash") { ArgumentList = { "-c", script } };
        return Process.Start(start)!;
    }

    private void Record(string role, int pid) =>
        File.WriteAllText(Path.Combine(_folder.Path, role),
            string.Create(CultureInfo.InvariantCulture, $"{pid} {ProcStat.Read("/proc", pid)!.StartTime}"));

    private static async Task<T> EventuallyAsync<T>(Func<T> read, Func<T, bool> done, TimeSpan? timeout = null)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            var value = read();
            if (done(value) || clock.Elapsed > (timeout ?? TimeSpan.FromSeconds(10)))
            {
                return value;
            }

            await Task.Delay(100);
        }
    }

    public void Dispose()
    {
        _trio?.Kill(entireProcessTree: true);
        _trio?.Dispose();
        _folder.Dispose();
    }
}
