using Microsoft.Extensions.Logging;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Judges each failed call to the sidecar (<see cref="SidecarFailure.Classify(Exception)"/>) and keeps what the
/// failures say about the configuration: after a failure wrong for every order (a component not found, 401, 403), the
/// app reports itself not ready, with one error line naming the cause, until a call goes through again. Nothing is
/// dropped for it: the orders are answered RETRY and wait for the fix.
/// </summary>
public sealed partial class SidecarFailureJudge(ILogger<SidecarFailureJudge> logger) : IReadinessProbe
{
    private volatile string? _misconfiguration;

    public string Name => "Dapr sidecar configuration";

    /// <summary>What the failure says about the order; records a failure wrong for every order.</summary>
    public SidecarFailureKind Judge(Exception exception)
    {
        var kind = SidecarFailure.Classify(exception);
        if (kind == SidecarFailureKind.RejectsEveryOrder)
        {
            var reason = SidecarFailure.Reason(exception);
            if (Interlocked.Exchange(ref _misconfiguration, reason) is null)
            {
                LogMisconfigured(reason);
            }
        }

        return kind;
    }

    /// <summary>A call went through: whatever refused every order before is fixed.</summary>
    public void Succeeded()
    {
        if (_misconfiguration is not null && Interlocked.Exchange(ref _misconfiguration, null) is not null)
        {
            LogFixed();
        }
    }

    public Task CheckAsync(CancellationToken cancellationToken) =>
        _misconfiguration is { } reason
            ? Task.FromException(new InvalidOperationException($"the sidecar refuses every order: {reason}"))
            : Task.CompletedTask;

    [LoggerMessage(LogLevel.Error,
        "The Dapr sidecar refuses every order, a configuration fault (component, API token or access): {Reason}. " +
        "Orders are answered RETRY, none is dropped; not ready until a call goes through")]
    private partial void LogMisconfigured(string reason);

    [LoggerMessage(LogLevel.Information, "The Dapr sidecar takes orders again")]
    private partial void LogFixed();
}
