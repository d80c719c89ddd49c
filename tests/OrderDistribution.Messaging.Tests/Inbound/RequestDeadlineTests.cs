using System.Diagnostics;
using System.Net;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>What a request that passes its deadline is answered, and what its warning says.</summary>
public sealed class RequestDeadlineTests : RecordingSidecarTests
{
    [Theory]
    [InlineData("/q-order-ingress-bulk")]
    [InlineData("/q-order-ingress-single")]
    [InlineData("/q-order-ingress-input")]
    public async Task With_a_sidecar_that_never_answers_a_request_is_answered_by_its_deadline_and_nothing_is_SUCCESS(
        string route)
    {
        Sidecar.Hang = new TaskCompletionSource().Task;
        await using var app = await ForwardingAsync(("Messaging:RequestDeadline", "00:00:01"));
        var client = await ReadyClientAsync(app);
        var order = TestOrders.Make(1, Delivery.Express);
        var content = route switch
        {
            "/q-order-ingress-bulk" =>
                BulkRequest.Json(BulkRequest.RawPayload(TestOrders.Many(50), "q-order-ingress").Body),
            "/q-order-ingress-single" =>
                BulkRequest.Json(
                $$"""{"specversion":"1.0","id":"c1","type":"com.dapr.event.sent","data":{{TestOrders.Json(order)}}}"""),
            _ => BulkRequest.Json(TestOrders.Json(order)),
        };

        var clock = Stopwatch.StartNew();
        var response = await client.PostAsync(route, content);
        clock.Stop();

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(4),
            $"answered after {clock.Elapsed.TotalSeconds:0.0} s, deadline 1 s");
        var answer = await response.Content.ReadAsStringAsync();
        Assert.DoesNotContain("SUCCESS", answer, StringComparison.Ordinal);
        Assert.Equal(
            route.EndsWith("-input", StringComparison.Ordinal) ? HttpStatusCode.ServiceUnavailable : HttpStatusCode.OK,
            response.StatusCode);
        Assert.Contains(app.Logs.Lines,
            l => l.Message.Contains("passed its deadline of 1 s", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_handler_that_stops_quietly_at_the_deadline_has_its_orders_retried_and_the_deadline_named()
    {
        await using var app = await EntryPointsHost.StartAsync(
            new StoppingAtDeadlineHandler(), ("Messaging:RequestDeadline", "00:00:01"));
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(3), "q-order-ingress");

        var statuses = await BulkRequest.StatusesAsync(
            await app.Client.PostAsync(EntryPointsHost.Routes.Bulk, BulkRequest.Json(body)));

        Assert.All(entryIds, id => Assert.Equal("RETRY", statuses[id]));
        var warning = Assert.Single(app.Logs.AtLeast(LogLevel.Warning), l => l.Message.Contains("RETRY"));
        Assert.Contains("first failure: (all): the request passed its deadline of 1 s", warning.Message);
    }

    /// <summary>
    /// Notices the deadline after the entry point began waiting for it, and ends without a failure at once: a
    /// write cancelled by the deadline returns as this does.
    /// </summary>
    private sealed class StoppingAtDeadlineHandler : IOrderHandler
    {
        public Task HandleAsync(IReadOnlyList<InboundOrder> orders, MessagingModel model, IOrderProgress progress,
            CancellationToken cancellationToken)
        {
            var stopped = new TaskCompletionSource();
            _ = Task.Run(async () =>
            {
                await Task.Delay(200, CancellationToken.None);
                cancellationToken.Register(() => stopped.TrySetResult());
            }, CancellationToken.None);
            return stopped.Task;
        }
    }
}
