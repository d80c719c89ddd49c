using Microsoft.Extensions.Logging;
using OrderDistribution.ServiceDefaults;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Judges each failed call to the sidecar (<see cref="SidecarFailure.Classify(Exception)"/>) and keeps what the
/// failures say about the configuration: after a failure wrong for every order to a destination (a component not
/// found, 401, 403), the app reports itself not ready, with one error line naming the destination and the cause (one
/// for a cause several destinations meet), until a call to that destination goes through again. Nothing is dropped
/// for it: the orders are answered RETRY and wait for the fix. Kept per destination (topic or output binding), since a
/// component or a scope can refuse one and take the other: a call that goes through to one says nothing of the other.
/// </summary>
public sealed partial class SidecarFailureJudge(ILogger<SidecarFailureJudge> logger) : IReadinessProbe
{
    /// <summary>Each refused destination's cause; taken under its own lock, only while a destination is refused or
    /// a call failed.</summary>
    private readonly Dictionary<string, string> _refused = new(StringComparer.Ordinal);

    /// <summary>How many destinations are refused: read on every call that went through, without the lock.</summary>
    private volatile int _refusedCount;

    public string Name => "Dapr sidecar configuration";

    /// <summary>What the failure says about the order; records a failure wrong for every order to
    /// <paramref name="destination"/>.</summary>
    public SidecarFailureKind Judge(Exception exception, string destination)
    {
        var kind = SidecarFailure.Classify(exception);
        if (kind == SidecarFailureKind.RejectsEveryOrder)
        {
            var reason = SidecarFailure.Reason(exception);
            bool first;
            lock (_refused)
            {
                // A cause every destination meets (a missing component, a wrong API token) is one line, not one each.
                first = !_refused.ContainsValue(reason);
                if (_refused.TryAdd(destination, reason))
                {
                    _refusedCount = _refused.Count;
                }
                else
                {
                    first = false;
                }
            }

            if (first)
            {
                LogMisconfigured(destination, reason);
            }
        }

        return kind;
    }

    /// <summary>A call to <paramref name="destination"/> went through: whatever refused every order to it before is
    /// fixed.</summary>
    public void Succeeded(string destination)
    {
        if (_refusedCount == 0)
        {
            return;
        }

        bool removed;
        lock (_refused)
        {
            removed = _refused.Remove(destination);
            _refusedCount = _refused.Count;
        }

        if (removed)
        {
            LogFixed(destination);
        }
    }

    public Task CheckAsync(CancellationToken cancellationToken)
    {
        if (_refusedCount == 0)
        {
            return Task.CompletedTask;
        }

        string refused;
        lock (_refused)
        {
            refused = string.Join("; to ", _refused.Select(r => $"{r.Key}: {r.Value}"));
        }

        return Task.FromException(new InvalidOperationException($"the sidecar refuses every order to {refused}"));
    }

    [LoggerMessage(LogLevel.Error,
        "The Dapr sidecar refuses every order to {Destination}, a configuration fault (component, API token or " +
        "access): {Reason}. Orders to it are answered RETRY, none is dropped; not ready until a call to it goes " +
        "through")]
    private partial void LogMisconfigured(string destination, string reason);

    [LoggerMessage(LogLevel.Information, "The Dapr sidecar takes orders to {Destination} again")]
    private partial void LogFixed(string destination);
}
