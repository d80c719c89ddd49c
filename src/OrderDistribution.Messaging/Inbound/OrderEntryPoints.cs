using System.Text.Json;
using Dapr.AspNetCore;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderDistribution.Contracts;

namespace OrderDistribution.Messaging.Inbound;

/// <summary>
/// The three ways the sidecar hands an app its orders, and the subscription that asks for them (Dapr.AspNetCore's
/// <c>/dapr/subscribe</c>, built from the topic metadata of the route the model picks). Nothing the sidecar can send
/// makes the pub/sub routes answer 500 or 400: each entry is decided on its own, every request is answered within
/// <see cref="MessagingOptions.RequestDeadline"/>, and only entries published, stored or kept on the dead-letter queue
/// for certain are answered SUCCESS. An entry refused for good (not a valid order, or an order the sidecar refuses for
/// good) is kept on the dead-letter queue with its body and the reason (<see cref="IDeadLetters"/>), with a warning.
/// The binding route carries one message and knows no statuses: 200 or 503, never 400 or 500
/// (<see cref="HandleBindingAsync"/>). The bodies are read here, not by model binding, whose failures would answer 400
/// for the whole run.
/// </summary>
public static class OrderEntryPoints
{
    public static IEndpointRouteBuilder MapOrderEntryPoints(this IEndpointRouteBuilder app, OrderRoutes routes)
    {
        var outage = app.ServiceProvider.GetRequiredService<RetryOutage>();
        // Resolved once, not per request: the handler and everything a request shares are singletons. The options
        // are read per request from their one instance (a field once read).
        var handler = app.ServiceProvider.GetRequiredService<IOrderHandler>();
        var options = app.ServiceProvider.GetRequiredService<IOptions<MessagingOptions>>();
        var logger = app.ServiceProvider.GetRequiredService<ILogger<RequestRun>>();
        var deadLetters = app.ServiceProvider.GetRequiredService<IDeadLetters>();
        var time = app.ServiceProvider.GetRequiredService<TimeProvider>();
        app.MapSubscribeHandler();
        var bulk = app.MapPost(routes.Bulk, (HttpRequest request) =>
            HandleBulkAsync(request, Run(routes.Queue)));
        var single = app.MapPost(routes.Single, (HttpRequest request) =>
            HandleSingleAsync(request, Run(routes.Queue)));
        app.MapPost(routes.Binding, (HttpRequest request) =>
            HandleBindingAsync(request, Run(routes.InputBinding), options.Value));

        // One run per request, named for where its messages come from; refusals are kept for the queue's orders.
        RequestRun Run(string source) =>
            new(handler, options.Value, source, routes.Queue, logger, outage, deadLetters, time);

        // The queue's orders go out as they are (raw payload), never wrapped in a CloudEvent. The bindings model keeps
        // the bulk subscription as it always had: no pub/sub component is in its scope, so the sidecar delivers nothing
        // on it.
        var messaging = options.Value;
        if (messaging.Model != MessagingModel.PubSubSingle)
        {
            bulk.WithTopic(messaging.PubSubName, routes.Queue, enableRawPayload: true)
                .WithBulkSubscribe(new BulkSubscribeTopicOptions
                {
                    TopicName = routes.Queue,
                    MaxMessagesCount = messaging.MaxMessagesCount,
                    MaxAwaitDurationMs = messaging.MaxAwaitDurationMs,
                });
        }
        else
        {
            single.WithTopic(messaging.PubSubName, routes.Queue, enableRawPayload: true);
        }

        return app;
    }

    /// <summary>
    /// A body that is not a bulk request at all cannot be answered entry by entry: it gets a 404, the answer
    /// with which Dapr drops a request instead of sending it again forever.
    /// </summary>
    private static async Task<Results<Ok<BulkSubscribeAppResponse>, ProblemHttpResult>> HandleBulkAsync(
        HttpRequest request, RequestRun run)
    {
        var (body, unreadable) = await RequestBody.ReadJsonAsync(request);
        using var _ = body;
        if (BulkSubscribeMessageReader.Read(body, run.Unanswerable) is not { } message)
        {
            var reason = unreadable ?? "expected a JSON object with an 'entries' array";
            run.NotARequest(request, reason, "404, so that the sidecar drops it");
            return TypedResults.Problem($"Not a bulk request: {reason}.", statusCode: StatusCodes.Status404NotFound);
        }

        var refused = new List<Refusal>();
        var orders = new List<InboundOrder>(message.Entries.Count);
        foreach (var entry in message.Entries)
        {
            try
            {
                orders.Add(new InboundOrder(entry.EntryId, CloudEventDecoder.Decode(entry.Event)));
            }
            catch (InvalidOrderException e)
            {
                refused.Add(new Refusal(entry.EntryId, CloudEventDecoder.PayloadOf(entry.Event), e.Message));
            }
        }

        var aborted = request.HttpContext.RequestAborted;
        var progress = await run.RunAsync(orders, MessagingModel.PubSubBulk, aborted);
        refused.AddRange(message.Entries
            .Where(entry => progress.DroppedBecause(entry.EntryId) is not null)
            .Select(entry => new Refusal(
                entry.EntryId, CloudEventDecoder.PayloadOf(entry.Event), progress.DroppedBecause(entry.EntryId)!)));
        var kept = await run.DeadLetterAsync(refused, MessagingModel.PubSubBulk, progress, aborted);
        var statuses = message.Entries
            .Select(entry => kept.Contains(entry.EntryId) || progress.IsDone(entry.EntryId)
                ? BulkSubscribeAppResponseStatus.SUCCESS
                : BulkSubscribeAppResponseStatus.RETRY)
            .ToList();
        run.Answered(MessagingModel.PubSubBulk, statuses, progress);
        return TypedResults.Ok(new BulkSubscribeAppResponse(
            message.Entries.Zip(statuses, (entry, status) => new BulkSubscribeAppResponseEntry(entry.EntryId, status))
                .ToList()));
    }

    /// <summary>
    /// One order, or one message refused for good and kept on the dead-letter queue: SUCCESS; anything else RETRY.
    /// A body that is no CloudEvent at all (never sent by a sidecar) is answered DROP.
    /// </summary>
    private static async Task<Ok<SingleRequestAnswer>> HandleSingleAsync(HttpRequest request, RequestRun run)
    {
        var (body, unreadable) = await RequestBody.ReadJsonAsync(request);
        using var _ = body;
        if (body is null)
        {
            run.NotARequest(request, unreadable!, "DROP");
            return Answer(BulkSubscribeAppResponseStatus.DROP);
        }

        var aborted = request.HttpContext.RequestAborted;
        var entryId = CloudEventIdOf(body.RootElement);
        var progress = new RequestProgress(1);
        var reason = Decode(body.RootElement, out var order);
        if (order is not null)
        {
            progress = await run.RunAsync(
                [new InboundOrder(entryId, order)], MessagingModel.PubSubSingle, aborted);
            reason = progress.DroppedBecause(entryId);
        }

        if (reason is not null)
        {
            var kept = await run.DeadLetterAsync(
                [new Refusal(entryId, CloudEventDecoder.PayloadOf(body.RootElement), reason)],
                MessagingModel.PubSubSingle, progress, aborted);
            return Answer(kept.Count == 1 ? BulkSubscribeAppResponseStatus.SUCCESS
                : BulkSubscribeAppResponseStatus.RETRY, progress);
        }

        return Answer(
            progress.IsDone(entryId) ? BulkSubscribeAppResponseStatus.SUCCESS : BulkSubscribeAppResponseStatus.RETRY,
            progress);

        Ok<SingleRequestAnswer> Answer(BulkSubscribeAppResponseStatus status, RequestProgress? answered = null)
        {
            run.Answered(MessagingModel.PubSubSingle, [status], answered);
            return TypedResults.Ok(new SingleRequestAnswer(status));
        }
    }

    /// <returns>Why the event is no valid order; null when <paramref name="order"/> is one.</returns>
    private static string? Decode(JsonElement root, out Order? order)
    {
        try
        {
            order = CloudEventDecoder.Decode(root);
            return null;
        }
        catch (InvalidOrderException e)
        {
            order = null;
            return e.Message;
        }
    }

    /// <summary>
    /// Input bindings know no statuses: 200 when done, or when a message refused for good (not a valid order, or an
    /// order the sidecar refuses for good) is kept on the dead-letter queue; 503 to have the broker deliver it again.
    /// Never 400: RabbitMQ would requeue it forever, and Service Bus dead-letter it without the reason. A message
    /// larger than the app reads (<see cref="MessagingOptions.MaxRequestBytes"/>) is refused for good and kept by its
    /// start, as large as the broker's largest message.
    /// </summary>
    private static async Task<Results<Ok, ProblemHttpResult>> HandleBindingAsync(
        HttpRequest request, RequestRun run, MessagingOptions options)
    {
        var entryId = request.Headers["Messageid"].FirstOrDefault() ?? "(no message id)";
        var aborted = request.HttpContext.RequestAborted;
        var (bytes, length, unreadable) = await RequestBody.ReadMessageAsync(request, options.MaxRequestBytes);
        if (bytes is null)
        {
            // Its one warning says why; no RETRY outage starts over one request that could not be read.
            run.NotARequest(request, unreadable!, "503, so that the broker keeps it");
            return TypedResults.Problem("The message could not be read; deliver it again.",
                statusCode: StatusCodes.Status503ServiceUnavailable);
        }

        var progress = new RequestProgress(1);
        string? reason;
        Order? order = null;
        if (length > bytes.Length)
        {
            bytes = bytes[..options.MaxMessageBytes];
            reason = $"{length} bytes, more than the broker's largest message ({options.MaxMessageBytes} bytes, " +
                     $"Messaging:MaxMessageBytes); its first {bytes.Length} bytes are kept";
        }
        else
        {
            try
            {
                using var body = JsonDocument.Parse(bytes);
                reason = Decode(body.RootElement, out order);
            }
            catch (JsonException e)
            {
                reason = $"not an order: the body is not JSON ({e.Message})";
            }
        }

        if (order is not null)
        {
            progress = await run.RunAsync([new InboundOrder(entryId, order)], MessagingModel.Bindings, aborted);
            reason = progress.DroppedBecause(entryId);
        }

        var done = reason is null
            ? progress.IsDone(entryId)
            : (await run.DeadLetterAsync([new Refusal(entryId, bytes, reason)], MessagingModel.Bindings, progress,
                aborted)).Count == 1;
        if (!done)
        {
            return Retry(order is null ? "The message could not be kept now; deliver it again."
                : $"Order {order.OrderId} could not be processed now; deliver it again.", progress);
        }

        run.Answered(MessagingModel.Bindings, [BulkSubscribeAppResponseStatus.SUCCESS], progress);
        return TypedResults.Ok();

        Results<Ok, ProblemHttpResult> Retry(string detail, RequestProgress? answered)
        {
            run.Answered(MessagingModel.Bindings, [BulkSubscribeAppResponseStatus.RETRY], answered);
            return TypedResults.Problem(detail, statusCode: StatusCodes.Status503ServiceUnavailable);
        }
    }

    /// <returns>The CloudEvent's id; a placeholder when it has none that can be read as text (the answer names no
    /// id).</returns>
    private static string CloudEventIdOf(JsonElement cloudEvent)
    {
        try
        {
            return cloudEvent is { ValueKind: JsonValueKind.Object } && cloudEvent.TryGetProperty("id", out var id)
                   && id.ValueKind == JsonValueKind.String && id.GetString() is { Length: > 0 } text
                ? text
                : "(no id)";
        }
        catch (InvalidOperationException)
        {
            return "(no readable id)"; // escapes that are no valid UTF-16
        }
    }
}
