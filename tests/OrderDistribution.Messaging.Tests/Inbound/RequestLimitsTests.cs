using System.Net;
using System.Text;
using System.Text.Json;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>What the core's settings make of a delivery before any app's handler (here a stub) sees it.</summary>
public sealed class RequestLimitsTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(10)]
    public async Task The_request_body_limit_fits_the_largest_valid_bulk_and_not_much_more(int count)
    {
        await using var app = await EntryPointsHost.StartAsync(("Messaging:MaxMessagesCount", $"{count}"),
            ("Messaging:MaxMessageBytes", "4096"));
        var limit = app.Services.GetRequiredService<IOptions<KestrelServerOptions>>().Value.Limits.MaxRequestBodySize;
        var largestEvent = Convert.ToBase64String(new byte[4096]);
        var largestBulk = Encoding.UTF8.GetByteCount(JsonSerializer.Serialize(new
        {
            entries = Enumerable.Range(0, count).Select(i => new
            {
                entryId = Guid.NewGuid().ToString(),
                @event = largestEvent,
                metadata = new Dictionary<string, string> { ["key"] = "value" },
                contentType = "application/octet-stream",
            }),
            id = Guid.NewGuid().ToString(),
            metadata = new { pubsubName = "order-pubsub" },
            pubsubname = "order-pubsub",
            topic = "q-order-ingress",
            type = "com.dapr.event.sent.bulk",
        }));

        Assert.NotNull(limit);
        Assert.InRange(limit.Value, largestBulk, (2 * largestBulk) + 8_192);
    }

    [Fact]
    public async Task An_invalid_binding_message_gets_200_only_once_it_is_kept_with_its_body_and_the_reason()
    {
        await using var app = await EntryPointsHost.StartAsync();
        const string body = """{"OrderId":1,"Delivery":"Overnight"}""";

        Assert.Equal((HttpStatusCode.ServiceUnavailable, HttpStatusCode.OK), await RefusedThenKeptAsync(app, body));
        var (letter, model) = Assert.Single(app.Kept.Letters);
        Assert.Equal(MessagingModel.Bindings, model);
        Assert.Equal((EntryPointsHost.Routes.Queue, "m-1", body), (letter.Queue, letter.EntryId, letter.Body));
        Assert.StartsWith("not an order:", letter.Reason, StringComparison.Ordinal);
        Assert.Contains(app.Logs.Lines,
            l => l.Level == LogLevel.Warning && l.Message.StartsWith(
                "Dropped entry m-1 from q-order-ingress-input, kept on q-order-deadletter:", StringComparison.Ordinal));
        Assert.Empty(app.Handler.Orders);
    }

    [Fact]
    public async Task A_binding_message_that_is_not_json_is_kept_as_it_came()
    {
        await using var app = await EntryPointsHost.StartAsync();
        const string body = "order 7 for Smith: not JSON at all <x>";

        var response = await app.Client.SendAsync(BindingRequest(body));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var letter = Assert.Single(app.Kept.Letters).Letter;
        Assert.Equal(body, letter.Body);
        Assert.StartsWith("not an order: the body is not JSON (", letter.Reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(50_000)]
    public async Task A_binding_message_larger_than_the_app_reads_is_kept_once_by_its_start_and_answered_200(
        int over)
    {
        await using var app = await EntryPointsHost.StartAsync(("Messaging:MaxMessagesCount", "10"),
            ("Messaging:MaxMessageBytes", "4096"));
        var length = (int)MaxRequestBytes(app) + over;
        var body = string.Concat(Enumerable.Range(0, length).Select(i => (char)('a' + i % 26)));

        Assert.Equal((HttpStatusCode.ServiceUnavailable, HttpStatusCode.OK), await RefusedThenKeptAsync(app, body));
        var letter = Assert.Single(app.Kept.Letters).Letter;
        Assert.Equal(body[..4096], letter.Body);
        Assert.Equal($"{length} bytes, more than the broker's largest message (4096 bytes, " +
            "Messaging:MaxMessageBytes); its first 4096 bytes are kept", letter.Reason);
        Assert.Single(app.Logs.AtLeast(LogLevel.Warning), l => l.Message.StartsWith(
            "Dropped entry m-1 from q-order-ingress-input, kept on q-order-deadletter:", StringComparison.Ordinal));
        Assert.Empty(app.Handler.Orders);
    }

    [Fact]
    public async Task A_binding_order_as_large_as_the_app_reads_reaches_the_handler()
    {
        await using var app = await EntryPointsHost.StartAsync(("Messaging:MaxMessagesCount", "10"),
            ("Messaging:MaxMessageBytes", "4096"));
        var order = TestOrders.Json(TestOrders.Make(7, Contracts.Delivery.Express));

        var response = await app.Client.SendAsync(
            BindingRequest(order + new string(' ', (int)MaxRequestBytes(app) - order.Length)));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(7, Assert.Single(app.Handler.Orders).Order.OrderId);
        Assert.Empty(app.Kept.Letters);
    }

    private static long MaxRequestBytes(EntryPointsHost app) =>
        app.Services.GetRequiredService<IOptions<MessagingOptions>>().Value.MaxRequestBytes;

    /// <returns>What the message is answered while its letter cannot be kept, then once it can.</returns>
    private static async Task<(HttpStatusCode Refused, HttpStatusCode Kept)> RefusedThenKeptAsync(
        EntryPointsHost app, string body)
    {
        app.Kept.Refusing = true;
        var refused = await app.Client.SendAsync(BindingRequest(body));
        app.Kept.Refusing = false;
        var kept = await app.Client.SendAsync(BindingRequest(body));
        return (refused.StatusCode, kept.StatusCode);
    }

    private static HttpRequestMessage BindingRequest(string body)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, EntryPointsHost.Routes.Binding)
        {
            Content = BulkRequest.Json(body),
        };
        request.Headers.Add("Messageid", "m-1");
        return request;
    }
}
