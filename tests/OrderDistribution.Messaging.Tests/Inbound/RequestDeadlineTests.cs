using Microsoft.Extensions.Logging;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>What a request that passes its deadline is answered, and what its warning says.</summary>
public sealed class RequestDeadlineTests
{
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
