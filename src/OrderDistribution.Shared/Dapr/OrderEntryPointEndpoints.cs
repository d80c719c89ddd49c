using System.Diagnostics;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderDistribution.Orders;

namespace OrderDistribution.Dapr;

/// <summary>
/// The three ways the sidecar hands an app its orders, and the subscription that asks for them. Nothing the
/// sidecar can send makes these answer 500: each entry is decided on its own (an entry that is not a valid
/// order is dropped with a warning), every delivery is answered within <see cref="MessagingOptions.DeliveryDeadline"/>,
/// and only entries published or stored for certain are answered SUCCESS.
/// </summary>
public static partial class OrderEntryPointEndpoints
{
    public static IEndpointRouteBuilder MapOrderEntryPoints(this IEndpointRouteBuilder app, OrderRoutes routes)
    {
        app.MapGet("/dapr/subscribe", (IOptions<MessagingOptions> options) =>
            TypedResults.Ok(new[] { Subscription(options.Value, routes) }));
        app.MapPost(routes.Bulk, (HttpRequest request, IOrderHandler handler, IOptions<MessagingOptions> options, ILoggerFactory loggers) =>
            HandleBulkAsync(request, new Delivery(handler, options.Value, routes.Topic, Logger(loggers))));
        app.MapPost(routes.Single, (HttpRequest request, IOrderHandler handler, IOptions<MessagingOptions> options, ILoggerFactory loggers) =>
            HandleSingleAsync(request, new Delivery(handler, options.Value, routes.Topic, Logger(loggers))));
        app.MapPost(routes.Binding, (HttpRequest request, IOrderHandler handler, IOptions<MessagingOptions> options, ILoggerFactory loggers) =>
            HandleBindingAsync(request, new Delivery(handler, options.Value, routes.InputBinding, Logger(loggers))));
        return app;
    }

    public static DaprSubscription Subscription(MessagingOptions options, OrderRoutes routes)
    {
        var rawPayload = new Dictionary<string, string> { ["rawPayload"] = "true" };
        return options.PubSubMode == PubSubMode.Bulk
            ? new DaprSubscription(options.PubSubName, routes.Topic, routes.Bulk, rawPayload,
                new DaprBulkSubscribe(true, options.MaxMessagesCount, options.MaxAwaitDurationMs))
            : new DaprSubscription(options.PubSubName, routes.Topic, routes.Single, rawPayload, null);
    }

    /// <summary>
    /// A body that is not a bulk delivery at all cannot be answered entry by entry: it gets a 404, the answer
    /// with which Dapr drops a delivery instead of sending it again forever.
    /// </summary>
    private static async Task<Results<Ok<BulkSubscribeResponse>, ProblemHttpResult>> HandleBulkAsync(HttpRequest request, Delivery delivery)
    {
        var (body, unreadable) = await ReadJsonAsync(request);
        using var _ = body;
        if (body?.RootElement is not { ValueKind: JsonValueKind.Object } root
            || !root.TryGetProperty("entries", out var entries) || entries.ValueKind != JsonValueKind.Array)
        {
            var reason = unreadable ?? "expected a JSON object with an 'entries' array";
            delivery.NotADelivery(request, reason, "404, so that the sidecar drops it");
            return TypedResults.Problem($"Not a bulk delivery: {reason}.", statusCode: StatusCodes.Status404NotFound);
        }

        var answered = new List<string>(entries.GetArrayLength());
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var dropped = new HashSet<string>(StringComparer.Ordinal);
        var orders = new List<InboundOrder>(entries.GetArrayLength());
        var position = 0;
        foreach (var entry in entries.EnumerateArray())
        {
            var at = position++;
            if (EntryIdOf(entry) is not { } entryId)
            {
                delivery.Unanswerable(at);
                continue;
            }

            if (!seen.Add(entryId))
            {
                continue; // the same entry twice: processed once, answered once
            }

            answered.Add(entryId);
            if (entry.ValueKind != JsonValueKind.Object || !entry.TryGetProperty("event", out var @event))
            {
                delivery.Drop(entryId, "the entry has no event");
                dropped.Add(entryId);
                continue;
            }

            try
            {
                orders.Add(new InboundOrder(entryId, DaprEventDecoder.Decode(@event)));
            }
            catch (InvalidOrderException e)
            {
                delivery.Drop(entryId, e.Message);
                dropped.Add(entryId);
            }
        }

        var progress = await delivery.RunAsync(orders, InboundChannel.BulkSubscription, request.HttpContext.RequestAborted);
        var statuses = answered
            .Select(id => new BulkEntryResponse(id,
                dropped.Contains(id) ? BulkEntryStatus.DROP
                : progress.IsDone(id) ? BulkEntryStatus.SUCCESS
                : BulkEntryStatus.RETRY))
            .ToList();
        delivery.Answered(InboundChannel.BulkSubscription, statuses.Select(s => s.Status).ToList(), progress);
        return TypedResults.Ok(new BulkSubscribeResponse(statuses));
    }

    /// <summary>Anything that is not one valid order is answered DROP, the status with which Dapr drops a message.</summary>
    private static async Task<Ok<SubscriptionResponse>> HandleSingleAsync(HttpRequest request, Delivery delivery)
    {
        var (body, unreadable) = await ReadJsonAsync(request);
        using var _ = body;
        if (body is null)
        {
            delivery.NotADelivery(request, unreadable!, "DROP");
            return Answer(BulkEntryStatus.DROP);
        }

        var entryId = body.RootElement is { ValueKind: JsonValueKind.Object } root
                      && root.TryGetProperty("id", out var id) && id.ValueKind == JsonValueKind.String
            ? id.GetString()!
            : "(no id)";
        Order order;
        try
        {
            order = DaprEventDecoder.Decode(body.RootElement);
        }
        catch (InvalidOrderException e)
        {
            delivery.Drop(entryId, e.Message);
            return Answer(BulkEntryStatus.DROP);
        }

        var progress = await delivery.RunAsync([new InboundOrder(entryId, order)], InboundChannel.Subscription, request.HttpContext.RequestAborted);
        return Answer(progress.IsDone(entryId) ? BulkEntryStatus.SUCCESS : BulkEntryStatus.RETRY, progress);

        Ok<SubscriptionResponse> Answer(BulkEntryStatus status, DeliveryProgress? progress = null)
        {
            delivery.Answered(InboundChannel.Subscription, [status], progress);
            return TypedResults.Ok(new SubscriptionResponse(status));
        }
    }

    /// <summary>
    /// Input bindings know no statuses: 200 when done, 503 to have the broker deliver it again. What is not a
    /// valid order gets a 400, which a broker with a delivery limit dead-letters, or, on brokers that would
    /// requeue it forever, a 200 after the drop is logged (<see cref="MessagingOptions.InvalidBindingMessage"/>).
    /// </summary>
    private static async Task<Results<Ok, ProblemHttpResult>> HandleBindingAsync(HttpRequest request, Delivery delivery)
    {
        var entryId = request.Headers["Messageid"].FirstOrDefault() ?? "(no message id)";
        var (body, unreadable) = await ReadJsonAsync(request);
        using var _ = body;
        if (body is null)
        {
            delivery.NotADelivery(request, unreadable!, delivery.RejectsInvalidBindingMessages ? "400, so that the broker dead-letters it" : "200, dropped");
            return Invalid($"Not an order: {unreadable}.");
        }

        Order order;
        try
        {
            order = DaprEventDecoder.Decode(body.RootElement);
        }
        catch (InvalidOrderException e)
        {
            delivery.Drop(entryId, e.Message);
            return Invalid(e.Message);
        }

        var progress = await delivery.RunAsync([new InboundOrder(entryId, order)], InboundChannel.InputBinding, request.HttpContext.RequestAborted);
        var done = progress.IsDone(entryId);
        delivery.Answered(InboundChannel.InputBinding, [done ? BulkEntryStatus.SUCCESS : BulkEntryStatus.RETRY], progress);
        return done
            ? TypedResults.Ok()
            : TypedResults.Problem($"Order {order.OrderId} could not be processed now; deliver it again.",
                statusCode: StatusCodes.Status503ServiceUnavailable);

        Results<Ok, ProblemHttpResult> Invalid(string detail)
        {
            delivery.Answered(InboundChannel.InputBinding, [BulkEntryStatus.DROP], null);
            return delivery.RejectsInvalidBindingMessages
                ? TypedResults.Problem(detail, statusCode: StatusCodes.Status400BadRequest)
                : TypedResults.Ok();
        }
    }

    /// <returns>The entry's id as the sidecar wrote it (a number as its text); null when it has none to answer under.</returns>
    private static string? EntryIdOf(JsonElement entry)
    {
        if (entry.ValueKind != JsonValueKind.Object || !entry.TryGetProperty("entryId", out var id))
        {
            return null;
        }

        try
        {
            return id.ValueKind switch
            {
                JsonValueKind.String => id.GetString() is { Length: > 0 } text ? text : null,
                JsonValueKind.Number => id.GetRawText(),
                _ => null,
            };
        }
        catch (InvalidOperationException)
        {
            return null; // escapes that are no valid UTF-16
        }
    }

    /// <returns>The document, or why there is none: not JSON, too large, or the caller hung up.</returns>
    private static async Task<(JsonDocument? Document, string? Unreadable)> ReadJsonAsync(HttpRequest request)
    {
        try
        {
            return (await JsonDocument.ParseAsync(request.Body, default, request.HttpContext.RequestAborted), null);
        }
        catch (JsonException e)
        {
            return (null, $"the body is not JSON ({e.Message})");
        }
        catch (BadHttpRequestException e) when (e.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            return (null, "the body is larger than any delivery of Messaging:MaxMessagesCount messages of Messaging:MaxMessageBytes");
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or BadHttpRequestException)
        {
            return (null, $"the body could not be read ({e.Message})");
        }
    }

    private static ILogger Logger(ILoggerFactory loggers) => loggers.CreateLogger(typeof(OrderEntryPointEndpoints));

    /// <summary>One delivery: runs the handler within the deadline and logs what became of it.</summary>
    private sealed class Delivery(IOrderHandler handler, MessagingOptions options, string source, ILogger logger)
    {
        private readonly long _started = Stopwatch.GetTimestamp();

        public bool RejectsInvalidBindingMessages => options.InvalidBindingMessage == InvalidBindingMessage.Reject;

        public async Task<DeliveryProgress> RunAsync(
            List<InboundOrder> orders, InboundChannel channel, CancellationToken requestAborted)
        {
            var progress = new DeliveryProgress();
            if (orders.Count == 0)
            {
                return progress;
            }

            var left = options.DeliveryDeadline - Stopwatch.GetElapsedTime(_started);
            using var deadline = CancellationTokenSource.CreateLinkedTokenSource(requestAborted);
            deadline.CancelAfter(left > TimeSpan.Zero ? left : TimeSpan.Zero);
            try
            {
                // WaitAsync: the answer goes out at the deadline even if the handler is slow to notice it.
                await handler.HandleAsync(orders, channel, progress, deadline.Token).WaitAsync(deadline.Token);
            }
            catch (OperationCanceledException) when (requestAborted.IsCancellationRequested)
            {
                progress.MarkFailed("(all)", $"the sidecar hung up after {ElapsedMs} ms");
            }
            catch (OperationCanceledException) when (deadline.IsCancellationRequested)
            {
                progress.MarkFailed("(all)", $"the delivery passed its deadline of {options.DeliveryDeadline.TotalSeconds:0.###} s");
            }
            catch (Exception e)
            {
                LogHandlerFailed(logger, e, source, channel);
            }

            return progress;
        }

        public void Drop(string entryId, string reason) => LogDropped(logger, entryId, source, reason);

        public void Unanswerable(int position) => LogUnanswerable(logger, source, position);

        public void NotADelivery(HttpRequest request, string reason, string answer)
        {
            if (request.HttpContext.RequestAborted.IsCancellationRequested)
            {
                LogCallerHungUp(logger, source, null, ElapsedMs);
            }
            else
            {
                LogNotADelivery(logger, source, reason, answer);
            }
        }

        /// <summary>
        /// One line per delivery: at Debug when every entry is done or dropped (each drop has its own warning), at
        /// Warning when some are to be retried, naming the first failure.
        /// </summary>
        public void Answered(InboundChannel channel, List<BulkEntryStatus> statuses, DeliveryProgress? progress)
        {
            var retryCount = statuses.Count(s => s == BulkEntryStatus.RETRY);
            var level = retryCount > 0 ? LogLevel.Warning : LogLevel.Debug;
            if (logger.IsEnabled(level))
            {
                var successCount = statuses.Count(s => s == BulkEntryStatus.SUCCESS);
                var dropCount = statuses.Count(s => s == BulkEntryStatus.DROP);
                var elapsedMs = ElapsedMs;
                LogDelivery(logger, level, statuses.Count, source, channel, successCount, retryCount, dropCount, elapsedMs,
                    progress?.FirstFailure ?? "none");
            }
        }

        private long ElapsedMs => (long)Stopwatch.GetElapsedTime(_started).TotalMilliseconds;
    }

    [LoggerMessage(LogLevel.Warning, "Dropped entry {EntryId} from {Source}: {Reason}")]
    private static partial void LogDropped(ILogger logger, string entryId, string source, string reason);

    [LoggerMessage(LogLevel.Warning,
        "Dropped the entry at position {Position} from {Source}: it has no entryId, so no status can name it")]
    private static partial void LogUnanswerable(ILogger logger, string source, int position);

    [LoggerMessage(LogLevel.Warning, "A request to {Source} is not a delivery, answered {Answer}: {Reason}")]
    private static partial void LogNotADelivery(ILogger logger, string source, string reason, string answer);

    [LoggerMessage(
        "Delivery of {Count} from {Source} ({Channel}): {SuccessCount} succeeded, {RetryCount} to retry, {DropCount} dropped in {ElapsedMs} ms; first failure: {FirstFailure}")]
    private static partial void LogDelivery(
        ILogger logger, LogLevel level, int count, string source, InboundChannel channel, int successCount, int retryCount, int dropCount,
        long elapsedMs, string firstFailure);

    [LoggerMessage(LogLevel.Warning, "The caller of a delivery from {Source} ({Channel}) hung up after {ElapsedMs} ms")]
    private static partial void LogCallerHungUp(ILogger logger, string source, InboundChannel? channel, long elapsedMs);

    [LoggerMessage(LogLevel.Error, "Handling a delivery from {Source} ({Channel}) failed: what is not done is answered RETRY")]
    private static partial void LogHandlerFailed(ILogger logger, Exception exception, string source, InboundChannel channel);
}
