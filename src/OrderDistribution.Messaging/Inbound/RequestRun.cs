using System.Diagnostics;
using Dapr.AspNetCore;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>One request of the sidecar: runs the handler within the deadline and logs what became of it.</summary>
internal sealed partial class RequestRun(IOrderHandler handler, MessagingOptions options, string source,
    ILogger logger, RetryOutage outage)
{
    private readonly long _started = Stopwatch.GetTimestamp();

    public bool RejectsInvalidBindingMessages => options.InvalidBindingMessage == InvalidBindingMessage.Reject;

    public async Task<RequestProgress> RunAsync(
        List<InboundOrder> orders, MessagingModel model, CancellationToken requestAborted)
    {
        var progress = new RequestProgress(orders.Count);
        if (orders.Count == 0)
        {
            return progress;
        }

        var left = options.RequestDeadline - Stopwatch.GetElapsedTime(_started);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(requestAborted);
        deadline.CancelAfter(left > TimeSpan.Zero ? left : TimeSpan.Zero);
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

    public void Drop(string entryId, string reason) => LogDropped(logger, entryId, source, reason);

    /// <returns>Whether the handler dropped the entry, after logging it once.</returns>
    public bool DropIfRefused(RequestProgress progress, string entryId)
    {
        if (progress.DroppedBecause(entryId) is not { } reason)
        {
            return false;
        }

        Drop(entryId, reason);
        return true;
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
            var successCount = statuses.Count(s => s == BulkSubscribeAppResponseStatus.SUCCESS);
            var dropCount = statuses.Count - successCount - retryCount;
            LogRequest(logger, statuses.Count, source, model.Text(), successCount, retryCount, dropCount, ElapsedMs,
                progress?.FirstFailure ?? "none");
        }

        outage.Answered(source, model, retryCount, progress?.FirstFailure ?? "none");
    }

    private long ElapsedMs => (long)Stopwatch.GetElapsedTime(_started).TotalMilliseconds;

    [LoggerMessage(LogLevel.Warning, "Dropped entry {EntryId} from {Source}: {Reason}")]
    private static partial void LogDropped(ILogger logger, string entryId, string source, string reason);

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
