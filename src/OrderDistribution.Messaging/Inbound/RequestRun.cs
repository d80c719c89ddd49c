using System.Diagnostics;
using System.Text;
using Dapr.AspNetCore;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// One request of the sidecar: runs the handler within the deadline, keeps what is refused for good on the dead-letter
/// queue, and logs what became of it. <paramref name="source"/> names the route in the log; <paramref name="queue"/> is
/// the queue its messages came from, which a dead letter names.
/// </summary>
internal sealed partial class RequestRun(IOrderHandler handler, MessagingOptions options, string source, string queue,
    ILogger logger, RetryOutage outage, IDeadLetters deadLetters, TimeProvider time)
{
    private readonly long _started = Stopwatch.GetTimestamp();

    /// <summary>Entries kept on the dead-letter queue: answered SUCCESS, logged as dropped.</summary>
    private int _keptCount;

    public async Task<RequestProgress> RunAsync(
        List<InboundOrder> orders, MessagingModel model, CancellationToken requestAborted)
    {
        var progress = new RequestProgress(orders.Count);
        if (orders.Count == 0)
        {
            return progress;
        }

        using var deadline = Deadline(requestAborted);
        try
        {
            // WaitAsync: the answer goes out at the deadline even if the handler is slow to notice it.
            await handler.HandleAsync(orders, model, progress, deadline.Token).WaitAsync(deadline.Token);
        }
        catch (OperationCanceledException) when (deadline.IsCancellationRequested)
        {
            // Named below: a handler that noticed the deadline first returns without throwing.
        }
        catch (Exception e)
        {
            LogHandlerFailed(logger, e, source, model.Text());
        }

        if (requestAborted.IsCancellationRequested)
        {
            progress.MarkFailed("(all)", $"the sidecar hung up after {ElapsedMs} ms");
        }
        else if (deadline.IsCancellationRequested)
        {
            progress.MarkFailed("(all)",
                $"the request passed its deadline of {options.RequestDeadline.TotalSeconds:0.###} s");
        }

        return progress;
    }

    /// <summary>
    /// Keeps each refused entry on the dead-letter queue within what is left of the request's deadline, one warning
    /// line for each kept; one not kept is marked failed in <paramref name="progress"/> (answered RETRY).
    /// </summary>
    /// <returns>The entries kept.</returns>
    public async Task<IReadOnlySet<string>> DeadLetterAsync(IReadOnlyList<Refusal> refused, MessagingModel model,
        RequestProgress progress, CancellationToken requestAborted)
    {
        var kept = new HashSet<string>(StringComparer.Ordinal);
        if (refused.Count == 0)
        {
            return kept;
        }

        using var deadline = Deadline(requestAborted);
        foreach (var refusal in refused)
        {
            var letter = new DeadLetter(queue, refusal.EntryId, refusal.Reason,
                Encoding.UTF8.GetString(refusal.Body), time.GetUtcNow());
            if (await deadLetters.KeepAsync(letter, model, progress, deadline.Token))
            {
                LogDeadLettered(logger, refusal.EntryId, source, OrderTopology.DeadLetterQueue, refusal.Reason);
                kept.Add(refusal.EntryId);
            }
        }

        _keptCount += kept.Count;
        return kept;
    }

    public void Unanswerable(int position) => LogUnanswerable(logger, source, position);

    public void NotARequest(HttpRequest request, string reason, string answer)
    {
        if (request.HttpContext.RequestAborted.IsCancellationRequested)
        {
            LogCallerHungUp(logger, source, null, ElapsedMs);
        }
        else
        {
            LogNotARequest(logger, source, reason, answer);
        }
    }

    /// <summary>
    /// One line per request, at Debug, naming the first failure. Entries answered RETRY count toward the app's outage
    /// (<see cref="RetryOutage"/>), which is logged as one; each dropped entry has its own warning line.
    /// </summary>
    public void Answered(MessagingModel model, IReadOnlyList<BulkSubscribeAppResponseStatus> statuses,
        RequestProgress? progress)
    {
        var retryCount = statuses.Count(s => s == BulkSubscribeAppResponseStatus.RETRY);
        if (logger.IsEnabled(LogLevel.Debug))
        {
            var successCount = statuses.Count - retryCount - _keptCount;
            LogRequest(logger, statuses.Count, source, model.Text(), successCount, retryCount, _keptCount, ElapsedMs,
                progress?.FirstFailure ?? "none");
        }

        outage.Answered(source, model, retryCount, progress?.FirstFailure ?? "none");
    }

    private CancellationTokenSource Deadline(CancellationToken requestAborted)
    {
        var left = options.RequestDeadline - Stopwatch.GetElapsedTime(_started);
        var deadline = CancellationTokenSource.CreateLinkedTokenSource(requestAborted);
        deadline.CancelAfter(TimeSpan.FromTicks(Math.Max(left.Ticks, 0)));
        return deadline;
    }

    private long ElapsedMs => (long)Stopwatch.GetElapsedTime(_started).TotalMilliseconds;

    // "Dropped entry" starts it, as the queries of scripts/kql and the workbook look for it.
    [LoggerMessage(LogLevel.Warning, "Dropped entry {EntryId} from {Source}, kept on {DeadLetterQueue}: {Reason}")]
    private static partial void LogDeadLettered(
        ILogger logger, string entryId, string source, string deadLetterQueue, string reason);

    [LoggerMessage(LogLevel.Warning,
        "Dropped the entry at position {Position} from {Source}: it has no entryId, so no status can name it")]
    private static partial void LogUnanswerable(ILogger logger, string source, int position);

    [LoggerMessage(LogLevel.Warning,
        "A request to {Source} is not one the app can answer entry by entry, answered {Answer}: {Reason}")]
    private static partial void LogNotARequest(ILogger logger, string source, string reason, string answer);

    [LoggerMessage(LogLevel.Debug,
        "Request of {Count} from {Source} ({Model}): {SuccessCount} succeeded, {RetryCount} to retry, {DropCount} " +
        "dropped in {ElapsedMs} ms; first failure: {FirstFailure}")]
    private static partial void LogRequest(
        ILogger logger, int count, string source, string model, int successCount, int retryCount, int dropCount,
        long elapsedMs, string firstFailure);

    [LoggerMessage(LogLevel.Warning, "The caller of a request from {Source} ({Model}) hung up after {ElapsedMs} ms")]
    private static partial void LogCallerHungUp(ILogger logger, string source, string? model, long elapsedMs);

    [LoggerMessage(LogLevel.Error,
        "Handling a request from {Source} ({Model}) failed: what is not done is answered RETRY")]
    private static partial void LogHandlerFailed(ILogger logger, Exception exception, string source, string model);
}
