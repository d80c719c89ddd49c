using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// Checks every probe in the background, each within the timeout, and logs readiness lost as one warning, paced with
/// the app's other outage warnings when it has them (<see cref="WarningPace"/>): a spell of not ready is logged once
/// the pace allows, so that a store busy enough to miss the check now and then, or an outage that has its own warning,
/// does not write a line per flip; "Ready" closes only a spell that was logged.
/// </summary>
internal sealed partial class ReadinessMonitor(
    IEnumerable<IReadinessProbe> probes, ReadinessState state, IOptions<ReadinessOptions> options,
    ILogger<ReadinessMonitor> logger, WarningPace? pace = null) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var interval = options.Value.Interval;
        var first = true;
        var notReadyLogged = false;
        while (!stoppingToken.IsCancellationRequested)
        {
            var results = await Task.WhenAll(probes.Select(p => CheckAsync(p, stoppingToken)));
            state.Set(results.Where(r => r.Failure is not null).ToDictionary(r => r.Name, r => r.Failure));
            if (state.IsReady)
            {
                if (first || notReadyLogged)
                {
                    LogReady();
                }

                notReadyLogged = false;
            }
            else if (!notReadyLogged && (pace is null || pace.TryTake()))
            {
                LogNotReady(state.Describe());
                notReadyLogged = true;
            }

            first = false;
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

    [LoggerMessage(LogLevel.Warning, "Not ready: {Reason}")]
    private partial void LogNotReady(string reason);
}
