using System.Globalization;
using System.Net.Sockets;
using OrderDistribution.Storage;

namespace OrderDistribution.LoadTool.Store;

/// <summary>
/// One store's outages as the tool lives through them: the lease's renewals and the watch's listings tell it each
/// failed and answered call, and it tells <see cref="Listener"/> once when an outage begins and once (null) when the
/// store answers again, however many calls fail in between.
/// </summary>
public sealed class StoreOutage(string endpoint, TimeProvider? clock = null)
{
    private readonly Lock _lock = new();
    private readonly TimeProvider _clock = clock ?? TimeProvider.System;

    /// <summary>Told one line when an outage begins, and one when the store answers again.</summary>
    public IProgress<string>? Listener { get; set; }

    /// <summary>When the current outage began; null while the store answers.</summary>
    public DateTimeOffset? Since { get; private set; }

    /// <summary>
    /// A failure of the store itself rather than of the call: no answer in time, a connection refused, reset or not
    /// connected, throttling or a server error; found anywhere in the exception's causes, since the SDK and HttpClient
    /// pass some socket errors on unwrapped.
    /// </summary>
    public static bool IsOutage(Exception exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            if (e is SocketException or TimeoutException || StorageFailure.IsTransient(e))
            {
                return true;
            }

            if (e is AggregateException { InnerExceptions: var inner } && inner.Any(IsOutage))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>A call failed: an outage (<see cref="IsOutage"/>), or no answer in time.</summary>
    /// <returns>When the outage began.</returns>
    public DateTimeOffset Failed(Exception failure)
    {
        lock (_lock)
        {
            if (Since is { } since)
            {
                return since;
            }

            var now = _clock.GetUtcNow();
            Since = now;
            Listener?.Report(string.Create(CultureInfo.InvariantCulture,
                $"Storage at {endpoint} not answering since {now:HH:mm:ss} UTC ({FailureText.Reason(failure)})")
                + ": waiting it out until the timeout.");
            return now;
        }
    }

    /// <summary>A call was answered (a refusal such as 409 is an answer too).</summary>
    public void Answered()
    {
        lock (_lock)
        {
            if (Since is not { } since)
            {
                return;
            }

            Since = null;
            Listener?.Report(string.Create(CultureInfo.InvariantCulture,
                $"Storage at {endpoint} answers again, after {(_clock.GetUtcNow() - since).TotalSeconds:0} s."));
        }
    }
}
