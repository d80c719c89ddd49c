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
    [Fact]
    public async Task The_request_body_limit_fits_the_largest_valid_bulk_and_not_much_more()
    {
        await using var app = await EntryPointsHost.StartAsync(("Messaging:MaxMessagesCount", "10"),
            ("Messaging:MaxMessageBytes", "4096"));
        var limit = app.Services.GetRequiredService<IOptions<KestrelServerOptions>>().Value.Limits.MaxRequestBodySize;
        var largestEvent = Convert.ToBase64String(new byte[4096]);
        var largestBulk = Encoding.UTF8.GetByteCount(JsonSerializer.Serialize(new
        {
            entries = Enumerable.Range(0, 10).Select(i => new
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
        Assert.InRange(limit.Value, largestBulk, 2 * largestBulk);
    }

    [Fact]
    public async Task With_InvalidBindingMessage_Drop_an_invalid_binding_message_gets_200_once_its_drop_is_logged()
    {
        await using var app = await EntryPointsHost.StartAsync(("Messaging:InvalidBindingMessage", "Drop"));
        using var request = new HttpRequestMessage(HttpMethod.Post, EntryPointsHost.Routes.Binding)
        {
            Content = BulkRequest.Json("""{"OrderId":1,"Delivery":"Overnight"}"""),
        };
        request.Headers.Add("Messageid", "m-1");

        var response = await app.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains(app.Logs.Lines,
            l => l.Level == LogLevel.Warning
            && l.Message.StartsWith("Dropped entry m-1 from q-order-ingress-input:", StringComparison.Ordinal));
        Assert.Empty(app.Handler.Orders);
    }
}
