using System.Diagnostics;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace OrderDistribution.ServiceDefaults;

/// <summary>
/// Runs the app's hot paths once at start, so that the first burst does not pay for compiling them (the JIT, in every
/// process of the trio at once, on the cores the sidecars and the store also need). It runs before the server listens
/// (a web app starts its hosted services first), so the sidecar, which waits for the app's port, delivers nothing
/// before it; then it opens the connections the requests use, each within the readiness timeout: one that fails
/// is left to readiness to report, and never stops the start. It stores and publishes nothing.
/// </summary>
public abstract partial class StartupWarmUp(IOptions<ReadinessOptions> readiness, ILogger logger) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        await RunHotPathsAsync(cancellationToken);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(readiness.Value.Timeout);
        try
        {
            await OpenConnectionsAsync(timeout.Token).WaitAsync(timeout.Token);
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested)
        {
            LogConnectionsNotOpened(logger, e.Message);
        }

        LogWarmedUp(logger, (long)Stopwatch.GetElapsedTime(started).TotalMilliseconds);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <summary>Takes sample orders through the code the requests run, up to where it would publish or store.</summary>
    protected abstract Task RunHotPathsAsync(CancellationToken cancellationToken);

    /// <summary>
    /// Opens the connections to the dependencies with calls that change nothing (the readiness checks).
    /// </summary>
    protected abstract Task OpenConnectionsAsync(CancellationToken cancellationToken);

    [LoggerMessage(LogLevel.Information, "Warmed up in {ElapsedMs} ms")]
    private static partial void LogWarmedUp(ILogger logger, long elapsedMs);

    [LoggerMessage(LogLevel.Debug, "Warm-up: the connections are not open yet ({Reason}); readiness reports it")]
    private static partial void LogConnectionsNotOpened(ILogger logger, string reason);
}
