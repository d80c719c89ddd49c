using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// Checks every probe in the background, each within the timeout, and logs each change of readiness: becoming not
/// ready as a warning, paced with the app's other outage warnings when it has them (<see cref="WarningPace"/>), else
/// at Information, since the outage that caused it has its own warning then.
/// </summary>
internal sealed partial class ReadinessMonitor(
    IEnumerable<IReadinessProbe> probes, ReadinessState state, IOptions<ReadinessOptions> options,
    ILogger<ReadinessMonitor> logger, WarningPace? pace = null) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var interval = options.Value.Interval;
        bool? wasReady = null;
        while (!stoppingToken.IsCancellationRequested)
        {
            var results = await Task.WhenAll(probes.Select(p => CheckAsync(p, stoppingToken)));
            state.Set(results.Where(r => r.Failure is not null).ToDictionary(r => r.Name, r => r.Failure));
            if (wasReady != state.IsReady)
            {
                wasReady = state.IsReady;
                if (state.IsReady)
                {
                    LogReady();
                }
                else
                {
                    var reason = state.Describe();
                    LogNotReady(pace is null || pace.TryTake() ? LogLevel.Warning : LogLevel.Information, reason);
                }
            }

            try
            {
                await Task.Delay(interval, stoppingToken);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private async Task<(string Name, string? Failure)> CheckAsync(
        IReadinessProbe probe, CancellationToken stoppingToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(stoppingToken);
        timeout.CancelAfter(options.Value.Timeout);
        try
        {
            await probe.CheckAsync(timeout.Token).WaitAsync(timeout.Token);
            return (probe.Name, null);
        }
        catch (OperationCanceledException) when (!stoppingToken.IsCancellationRequested)
        {
            return (probe.Name, $"no answer within {options.Value.Timeout.TotalSeconds:0.###} s");
        }
        catch (Exception e) when (!stoppingToken.IsCancellationRequested)
        {
            return (probe.Name, e.Message);
        }
    }

    [LoggerMessage(LogLevel.Information, "Ready: every dependency answers")]
    private partial void LogReady();

    [LoggerMessage("Not ready: {Reason}")]
    private partial void LogNotReady(LogLevel level, string reason);
}
