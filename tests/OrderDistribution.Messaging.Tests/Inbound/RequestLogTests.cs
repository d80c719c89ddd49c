using System.Net;
using Microsoft.Extensions.Logging;
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
