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
/// The three ways the sidecar hands an app its orders, and the subscription that asks for them.
/// Invalid orders are dropped (bulk, single) or refused with a 400 (bindings, so the broker dead-letters
/// them); only failures worth retrying are answered RETRY or 503.
/// </summary>
public static partial class OrderEntryPointEndpoints
{
    public static IEndpointRouteBuilder MapOrderEntryPoints(this IEndpointRouteBuilder app, OrderRoutes routes)
    {
        app.MapGet("/dapr/subscribe", (IOptions<MessagingOptions> options) =>
            TypedResults.Ok(new[] { Subscription(options.Value, routes) }));
        app.MapPost(routes.Bulk, (HttpRequest request, IOrderHandler handler, ILoggerFactory loggers) =>
            HandleBulkAsync(request, handler, routes.Topic, Logger(loggers)));
        app.MapPost(routes.Single, (HttpRequest request, IOrderHandler handler, ILoggerFactory loggers) =>
            HandleSingleAsync(request, handler, routes.Topic, Logger(loggers)));
        app.MapPost(routes.Binding, (HttpRequest request, IOrderHandler handler, ILoggerFactory loggers) =>
            HandleBindingAsync(request, handler, routes.InputBinding, Logger(loggers)));
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

    private static async Task<Results<Ok<BulkSubscribeResponse>, ProblemHttpResult>> HandleBulkAsync(
        HttpRequest request, IOrderHandler handler, string topic, ILogger logger)
    {
        using var body = await TryParseAsync(request);
        if (body?.RootElement is not { ValueKind: JsonValueKind.Object } root
            || !root.TryGetProperty("entries", out var entries) || entries.ValueKind != JsonValueKind.Array)
        {
            return BadRequest("The body is not a bulk delivery: expected a JSON object with an 'entries' array.");
        }

        if (entries.GetArrayLength() == 0)
        {
            return BadRequest("The bulk delivery has no entries.");
        }

        var entryIds = new List<string>(entries.GetArrayLength());
        var dropped = new HashSet<string>();
        var orders = new List<InboundOrder>(entries.GetArrayLength());
        foreach (var entry in entries.EnumerateArray())
        {
            if (entry.ValueKind != JsonValueKind.Object
                || !entry.TryGetProperty("entryId", out var id) || id.GetString() is not { Length: > 0 } entryId
                || !entry.TryGetProperty("event", out var @event))
            {
                return BadRequest($"Entry {entryIds.Count} has no 'entryId' or no 'event'.");
            }

            entryIds.Add(entryId);
            try
            {
                orders.Add(new InboundOrder(entryId, DaprEventDecoder.Decode(@event)));
            }
            catch (InvalidOrderException e)
            {
                dropped.Add(entryId);
                LogDropped(logger, topic, entryId, e.Message);
            }
        }

        var retry = orders.Count > 0
            ? await handler.HandleAsync(orders, InboundChannel.BulkSubscription, request.HttpContext.RequestAborted)
            : new HashSet<string>();
        var statuses = entryIds
            .Select(id => new BulkEntryResponse(id,
                dropped.Contains(id) ? BulkEntryStatus.DROP
                : retry.Contains(id) ? BulkEntryStatus.RETRY
                : BulkEntryStatus.SUCCESS))
            .ToList();
        LogBulk(logger, entryIds.Count, topic, entryIds.Count - retry.Count - dropped.Count, retry.Count, dropped.Count);
        return TypedResults.Ok(new BulkSubscribeResponse(statuses));
    }

    private static async Task<Results<Ok<SubscriptionResponse>, ProblemHttpResult>> HandleSingleAsync(
        HttpRequest request, IOrderHandler handler, string topic, ILogger logger)
    {
        using var body = await TryParseAsync(request);
        if (body is null)
        {
            return BadRequest("The body is not JSON: expected a CloudEvent or an order.");
        }

        var entryId = body.RootElement is { ValueKind: JsonValueKind.Object } root
                      && root.TryGetProperty("id", out var id) && id.ValueKind == JsonValueKind.String
            ? id.GetString()!
            : Guid.NewGuid().ToString();
        Order order;
        try
        {
            order = DaprEventDecoder.Decode(body.RootElement);
        }
        catch (InvalidOrderException e)
        {
            LogDropped(logger, topic, entryId, e.Message);
            return TypedResults.Ok(new SubscriptionResponse(BulkEntryStatus.DROP));
        }

        var retry = await handler.HandleAsync(
            [new InboundOrder(entryId, order)], InboundChannel.Subscription, request.HttpContext.RequestAborted);
        return TypedResults.Ok(new SubscriptionResponse(retry.Count > 0 ? BulkEntryStatus.RETRY : BulkEntryStatus.SUCCESS));
    }

    private static async Task<Results<Ok, ProblemHttpResult>> HandleBindingAsync(
        HttpRequest request, IOrderHandler handler, string binding, ILogger logger)
    {
        var entryId = request.Headers["Messageid"].FirstOrDefault() ?? Guid.NewGuid().ToString();
        using var body = await TryParseAsync(request);
        if (body is null)
        {
            return BadRequest("The body is not JSON: expected an order.");
        }

        Order order;
        try
        {
            order = DaprEventDecoder.Decode(body.RootElement);
        }
        catch (InvalidOrderException e)
        {
            LogDropped(logger, binding, entryId, e.Message);
            return BadRequest(e.Message);
        }

        var retry = await handler.HandleAsync(
            [new InboundOrder(entryId, order)], InboundChannel.InputBinding, request.HttpContext.RequestAborted);
        return retry.Count > 0
            ? TypedResults.Problem($"Order {order.OrderId} could not be processed now; deliver it again.",
                statusCode: StatusCodes.Status503ServiceUnavailable)
            : TypedResults.Ok();
    }

    private static async Task<JsonDocument?> TryParseAsync(HttpRequest request)
    {
        try
        {
            return await JsonDocument.ParseAsync(request.Body, cancellationToken: request.HttpContext.RequestAborted);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private static ProblemHttpResult BadRequest(string detail) =>
        TypedResults.Problem(detail, statusCode: StatusCodes.Status400BadRequest);

    private static ILogger Logger(ILoggerFactory loggers) => loggers.CreateLogger(typeof(OrderEntryPointEndpoints));

    [LoggerMessage(LogLevel.Warning, "Dropped entry {EntryId} from {Source}: {Reason}")]
    private static partial void LogDropped(ILogger logger, string source, string entryId, string reason);

    [LoggerMessage(LogLevel.Information,
        "Bulk of {Count} from {Topic}: {SuccessCount} succeeded, {RetryCount} to retry, {DropCount} dropped")]
    private static partial void LogBulk(
        ILogger logger, int count, string topic, int successCount, int retryCount, int dropCount);
}
