using System.Net;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// What a request leaves in the log: nothing at Information or above when it goes well, a warning when its caller
/// hangs up before the answer.
/// </summary>
public sealed class RequestLogTests : RecordingSidecarTests
{
    [Fact]
    public async Task A_request_that_goes_well_logs_nothing_at_information_or_above()
    {
        await using var app = await ForwardingAsync(("Logging:LogLevel:OrderDistribution", "Debug"));
        var client = await ReadyClientAsync(app);
        var linesAtStart = app.Logs.AtLeast(LogLevel.Information).Count();

        for (var i = 0; i < 5; i++)
        {
            var (body, _) = BulkRequest.RawPayload(TestOrders.Many(50, firstId: 1 + (50 * i)), "q-order-ingress");
            Assert.Equal(HttpStatusCode.OK,
                (await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body))).StatusCode);
        }

        Assert.Equal(linesAtStart, app.Logs.AtLeast(LogLevel.Information).Count());
        Assert.Contains(app.Logs.Lines,
            l => l.Level == LogLevel.Debug
            && l.Message.StartsWith("Request of 50 from q-order-ingress", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("/q-order-ingress-bulk", "q-order-ingress (pubsub-bulk)")]
    [InlineData("/q-order-ingress-single", "q-order-ingress (pubsub-single)")]
    [InlineData("/q-order-ingress-input", "q-order-ingress-input (bindings)")]
    public async Task Each_route_logs_one_debug_line_per_request_with_what_became_of_its_entries(
        string route, string source)
    {
        await using var app = await EntryPointsHost.StartAsync(("Logging:LogLevel:OrderDistribution", "Debug"));
        var order = TestOrders.Json(TestOrders.Make(3, Delivery.Standard));
        var body = route switch
        {
            "/q-order-ingress-bulk" => BulkRequest.RawPayload([TestOrders.Make(3, Delivery.Standard)],
                "q-order-ingress").Body,
            "/q-order-ingress-single" =>
                $$"""{"specversion":"1.0","id":"c3","type":"com.dapr.event.sent","data":{{order}}}""",
            _ => order,
        };

        var response = await app.Client.PostAsync(route, BulkRequest.Json(body));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var line = Assert.Single(app.Logs.Lines, l => l.Message.StartsWith("Request of", StringComparison.Ordinal));
        Assert.Equal(LogLevel.Debug, line.Level);
        Assert.StartsWith($"Request of 1 from {source}: 1 succeeded, 0 to retry, 0 dropped in ", line.Message,
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_request_line_counts_an_entry_kept_on_the_dead_letter_queue_as_dropped_not_succeeded()
    {
        Sidecar.FailEntry = e => e.TryGetProperty("OrderId", out var id) && id.GetInt64() == 1;
        await using var app = await ForwardingAsync(("Logging:LogLevel:OrderDistribution", "Debug"));
        var client = await ReadyClientAsync(app);
        string Event(long id) => Convert.ToBase64String(OrderJson.Serialize(TestOrders.Make(id, Delivery.Express)));
        var body = $$$"""
            {"entries":[
              {"entryId":"e1","event":"{{{Event(1)}}}"},
              {"entryId":"e2","event":"{{{Event(2)}}}"},
              {"entryId":"e3","event":"{{{Convert.ToBase64String("not json"u8.ToArray())}}}"}
            ]}
            """;

        var statuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body)));

        Assert.Equal(("RETRY", "SUCCESS", "SUCCESS"), (statuses["e1"], statuses["e2"], statuses["e3"]));
        var line = Assert.Single(app.Logs.Lines, l => l.Message.StartsWith("Request of", StringComparison.Ordinal));
        Assert.StartsWith("Request of 3 from q-order-ingress (pubsub-bulk): 1 succeeded, 1 to retry, 1 dropped in ",
            line.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_caller_that_hangs_up_half_way_leaves_a_log_line()
    {
        Sidecar.Hang = new TaskCompletionSource().Task;
        await using var app = await ForwardingAsync();
        var client = await ReadyClientAsync(app);
        using var hangUp = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => client.PostAsync(
            "/q-order-ingress-bulk",
                BulkRequest.Json(BulkRequest.RawPayload(TestOrders.Many(5), "q-order-ingress").Body), hangUp.Token));

        await Eventually.TrueAsync(() => app.Logs.Lines.Any(l => l.Level == LogLevel.Warning
            && l.Message.StartsWith(
                "Requests from q-order-ingress (pubsub-bulk) are answered RETRY: 5 entries in the first",
                StringComparison.Ordinal)
            && l.Message.Contains("first failure: (all): the sidecar hung up after", StringComparison.Ordinal)));
    }
}
