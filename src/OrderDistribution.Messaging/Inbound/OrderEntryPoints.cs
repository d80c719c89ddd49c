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
/// makes the pub/sub routes answer 500 or 400: each entry is decided on its own (an entry that is not a valid order is
/// dropped with a warning), every request is answered within <see cref="MessagingOptions.RequestDeadline"/>, and only
/// entries published or stored for certain are answered SUCCESS. The binding route carries one message and knows no
/// statuses: it answers 400 for a message that can never succeed, by choice (<see cref="HandleBindingAsync"/>), and
/// never 500. The bodies are read here, not by model binding, whose failures would answer 400 for the whole run.
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
        app.MapSubscribeHandler();
        var bulk = app.MapPost(routes.Bulk, (HttpRequest request) =>
            HandleBulkAsync(request, new RequestRun(handler, options.Value, routes.Queue, logger, outage)));
        var single = app.MapPost(routes.Single, (HttpRequest request) =>
            HandleSingleAsync(request, new RequestRun(handler, options.Value, routes.Queue, logger, outage)));
        app.MapPost(routes.Binding, (HttpRequest request) =>
            HandleBindingAsync(request, new RequestRun(handler, options.Value, routes.InputBinding, logger, outage)));

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
        var (body, unreadable) = await ReadJsonAsync(request);
        using var _ = body;
        if (BulkSubscribeMessageReader.Read(body, run.Unanswerable) is not { } message)
        {
            var reason = unreadable ?? "expected a JSON object with an 'entries' array";
            run.NotARequest(request, reason, "404, so that the sidecar drops it");
            return TypedResults.Problem($"Not a bulk request: {reason}.", statusCode: StatusCodes.Status404NotFound);
        }

        var dropped = new HashSet<string>(StringComparer.Ordinal);
        var orders = new List<InboundOrder>(message.Entries.Count);
        foreach (var entry in message.Entries)
        {
            try
            {
                orders.Add(new InboundOrder(entry.EntryId, CloudEventDecoder.Decode(entry.Event)));
            }
            catch (InvalidOrderException e)
            {
                run.Drop(entry.EntryId, e.Message);
                dropped.Add(entry.EntryId);
            }
        }

        var progress = await run.RunAsync(orders, MessagingModel.PubSubBulk, request.HttpContext.RequestAborted);
        var statuses = message.Entries
            .Select(entry => dropped.Contains(entry.EntryId) || run.DropIfRefused(progress, entry.EntryId)
                ? BulkSubscribeAppResponseStatus.DROP
                : progress.IsDone(entry.EntryId) ? BulkSubscribeAppResponseStatus.SUCCESS
                : BulkSubscribeAppResponseStatus.RETRY)
            .ToList();
        run.Answered(MessagingModel.PubSubBulk, statuses, progress);
        return TypedResults.Ok(new BulkSubscribeAppResponse(
            message.Entries.Zip(statuses, (entry, status) => new BulkSubscribeAppResponseEntry(entry.EntryId, status))
                .ToList()));
    }

    /// <summary>
    /// Anything that is not one valid order is answered DROP, the status with which Dapr drops a message.
    /// </summary>
    private static async Task<Ok<SingleRequestAnswer>> HandleSingleAsync(HttpRequest request, RequestRun run)
    {
        var (body, unreadable) = await ReadJsonAsync(request);
        using var _ = body;
        if (body is null)
        {
            run.NotARequest(request, unreadable!, "DROP");
            return Answer(BulkSubscribeAppResponseStatus.DROP);
        }

        var entryId = CloudEventIdOf(body.RootElement);
        if (DecodeOrDrop(body.RootElement, entryId, run, out var _) is not { } order)
        {
            return Answer(BulkSubscribeAppResponseStatus.DROP);
        }

        var progress = await run.RunAsync(
            [new InboundOrder(entryId, order)], MessagingModel.PubSubSingle, request.HttpContext.RequestAborted);
        return Answer(
            run.DropIfRefused(progress, entryId) ? BulkSubscribeAppResponseStatus.DROP
            : progress.IsDone(entryId) ? BulkSubscribeAppResponseStatus.SUCCESS
            : BulkSubscribeAppResponseStatus.RETRY,
            progress);

        Ok<SingleRequestAnswer> Answer(BulkSubscribeAppResponseStatus status, RequestProgress? progress = null)
        {
            run.Answered(MessagingModel.PubSubSingle, [status], progress);
            return TypedResults.Ok(new SingleRequestAnswer(status));
        }
    }

    /// <returns>The order, or null when the entry is no valid order: then it is dropped with one warning naming
    /// why.</returns>
    private static Order? DecodeOrDrop(JsonElement root, string entryId, RequestRun run, out string invalid)
    {
        try
        {
            invalid = "";
            return CloudEventDecoder.Decode(root);
        }
        catch (InvalidOrderException e)
        {
            run.Drop(entryId, e.Message);
            invalid = e.Message;
            return null;
        }
    }

    /// <summary>
    /// Input bindings know no statuses: 200 when done, 503 to have the broker deliver it again. What is not a
    /// valid order, or an order the sidecar refuses for good, gets a 400, which a broker with a delivery limit
    /// dead-letters, or, on brokers that would requeue it forever, a 200 after the drop is logged (<see
    /// cref="MessagingOptions.InvalidBindingMessage"/>).
    /// </summary>
    private static async Task<Results<Ok, ProblemHttpResult>> HandleBindingAsync(HttpRequest request, RequestRun run)
    {
        var entryId = request.Headers["Messageid"].FirstOrDefault() ?? "(no message id)";
        var (body, unreadable) = await ReadJsonAsync(request);
        using var _ = body;
        if (body is null)
        {
            run.NotARequest(request, unreadable!, run.RejectsInvalidBindingMessages
                ? "400, so that the broker dead-letters it" : "200, dropped");
            return Invalid($"Not an order: {unreadable}.");
        }

        if (DecodeOrDrop(body.RootElement, entryId, run, out var invalid) is not { } order)
        {
            return Invalid(invalid);
        }

        var progress = await run.RunAsync(
            [new InboundOrder(entryId, order)], MessagingModel.Bindings, request.HttpContext.RequestAborted);
        if (run.DropIfRefused(progress, entryId))
        {
            return Invalid($"Order {order.OrderId} can never be sent on: {progress.DroppedBecause(entryId)}.");
        }

        var done = progress.IsDone(entryId);
        run.Answered(MessagingModel.Bindings,
            [done ? BulkSubscribeAppResponseStatus.SUCCESS : BulkSubscribeAppResponseStatus.RETRY], progress);
        return done
            ? TypedResults.Ok()
            : TypedResults.Problem($"Order {order.OrderId} could not be processed now; deliver it again.",
                statusCode: StatusCodes.Status503ServiceUnavailable);

        Results<Ok, ProblemHttpResult> Invalid(string detail)
        {
            run.Answered(MessagingModel.Bindings, [BulkSubscribeAppResponseStatus.DROP], null);
            return run.RejectsInvalidBindingMessages
                ? TypedResults.Problem(detail, statusCode: StatusCodes.Status400BadRequest)
                : TypedResults.Ok();
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
            return (null,
                "the body is larger than any request of Messaging:MaxMessagesCount messages of " +
                "Messaging:MaxMessageBytes");
        }
        catch (Exception e) when (e is OperationCanceledException or IOException or BadHttpRequestException)
        {
            return (null, $"the body could not be read ({e.Message})");
        }
    }
}
