using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// What one request is answered when its time, its body or its handler goes wrong: the deadline counts from the
/// request's start, a body too large or cut off is answered (never thrown), a failing handler is logged once, and an
/// order stored is never counted as answered RETRY.
/// </summary>
public sealed class RequestRunDecisionTests
{
    [Fact]
    public async Task A_request_whose_body_took_past_its_deadline_has_its_handler_stopped_at_once_and_entries_RETRY()
    {
        var handler = new WaitingHandler();
        await using var app = await EntryPointsHost.StartAsync(handler, ("Messaging:RequestDeadline", "00:00:01"));
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(2), "q-order-ingress");

        // The body arrives 2.5 s after the request began: 1.5 s past its deadline before the handler starts.
        var response = await app.Client.PostAsync(
            EntryPointsHost.Routes.Bulk, new LateContent(body, TimeSpan.FromSeconds(2.5)));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var statuses = await BulkRequest.StatusesAsync(response);
        Assert.All(entryIds, id => Assert.Equal("RETRY", statuses[id]));
        Assert.True(handler.Waited < TimeSpan.FromSeconds(1.5),
            $"the handler was stopped after {handler.Waited.TotalSeconds:0.0} s, though the deadline had passed");
        Assert.Contains(app.Logs.Lines,
            l => l.Message.Contains("passed its deadline of 1 s", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_handler_that_throws_gets_its_orders_answered_RETRY_and_one_error_line_with_the_exception()
    {
        await using var app = await EntryPointsHost.StartAsync(new ThrowingHandler());
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(2), "q-order-ingress");

        var response = await app.Client.PostAsync(EntryPointsHost.Routes.Bulk, BulkRequest.Json(body));

        var statuses = await BulkRequest.StatusesAsync(response);
        Assert.All(entryIds, id => Assert.Equal("RETRY", statuses[id]));
        var error = Assert.Single(app.Logs.AtLeast(LogLevel.Error));
        Assert.StartsWith("Handling a request from q-order-ingress (pubsub-bulk) failed", error.Message,
            StringComparison.Ordinal);
        Assert.IsType<InvalidOperationException>(error.Exception);
    }

    [Fact]
    public async Task A_body_over_the_request_limit_is_answered_404_naming_the_limit_not_thrown()
    {
        await using var app = await EntryPointsHost.StartAsync(
            ("Messaging:MaxMessagesCount", "10"), ("Messaging:MaxMessageBytes", "4096"));
        var (body, _) = BulkRequest.RawPayload(TestOrders.Many(10, descriptionLength: 20_000), "q-order-ingress");

        var response = await app.Client.PostAsync(EntryPointsHost.Routes.Bulk, BulkRequest.Json(body));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Contains("the body is larger than any request of Messaging:MaxMessagesCount messages",
            await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Empty(app.Handler.Orders);
        Assert.Empty(app.Logs.AtLeast(LogLevel.Error));
    }

    [Fact]
    public async Task A_caller_that_hangs_up_before_its_body_is_read_is_answered_with_a_warning_and_no_error()
    {
        await using var app = await EntryPointsHost.StartAsync();
        using (var socket = new TcpClient())
        {
            await socket.ConnectAsync(app.Client.BaseAddress!.Host, app.Client.BaseAddress.Port);
            var stream = socket.GetStream();
            await stream.WriteAsync(Encoding.ASCII.GetBytes(
                $"POST {EntryPointsHost.Routes.Bulk} HTTP/1.1\r\nHost: localhost\r\n" +
                "Content-Type: application/json\r\n" +
                "Content-Length: 100000\r\n\r\n{\"entries\":["));
            await stream.FlushAsync();
            // Time for the app to begin reading the body before the connection goes.
            await Task.Delay(300);
        }

        // Which warning depends on whether the server saw the hang-up before the read failed: either answers it.
        await Eventually.TrueAsync(() => app.Logs.Lines.Any(l => l.Level == LogLevel.Warning
            && (l.Message.StartsWith("The caller of a request from q-order-ingress", StringComparison.Ordinal)
                || l.Message.StartsWith("A request to q-order-ingress is not one the app can answer",
                    StringComparison.Ordinal))));
        Assert.Empty(app.Logs.AtLeast(LogLevel.Error));
        Assert.Empty(app.Handler.Orders);
    }

    [Fact]
    public async Task A_binding_message_stored_at_once_is_never_counted_as_answered_RETRY()
    {
        await using var app = await EntryPointsHost.StartAsync();

        for (var i = 1; i <= 3; i++)
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, EntryPointsHost.Routes.Binding)
            {
                Content = BulkRequest.Json(TestOrders.Json(TestOrders.Make(i, Delivery.Express))),
            };
            request.Headers.Add("Messageid", $"m-{i}");
            Assert.Equal(HttpStatusCode.OK, (await app.Client.SendAsync(request)).StatusCode);
        }

        Assert.Equal(3, app.Handler.Orders.Count);
        Assert.DoesNotContain(app.Logs.Lines, l => l.Message.Contains("answered RETRY", StringComparison.Ordinal));
    }

    /// <summary>Waits for the deadline, and keeps how long it waited.</summary>
    private sealed class WaitingHandler : IOrderHandler
    {
        public TimeSpan Waited { get; private set; }

        public async Task HandleAsync(IReadOnlyList<InboundOrder> orders, MessagingModel model,
            IOrderProgress progress, CancellationToken cancellationToken)
        {
            var clock = Stopwatch.StartNew();
            try
            {
                await Task.Delay(TimeSpan.FromSeconds(30), cancellationToken);
            }
            finally
            {
                Waited = clock.Elapsed;
            }
        }
    }

    private sealed class ThrowingHandler : IOrderHandler
    {
        public Task HandleAsync(IReadOnlyList<InboundOrder> orders, MessagingModel model, IOrderProgress progress,
            CancellationToken cancellationToken) => throw new InvalidOperationException("the handler's own bug");
    }

    /// <summary>A JSON body whose bytes are sent only after a delay, the headers at once.</summary>
    private sealed class LateContent : HttpContent
    {
        private readonly byte[] _bytes;
        private readonly TimeSpan _delay;

        public LateContent(string body, TimeSpan delay)
        {
            _bytes = Encoding.UTF8.GetBytes(body);
            _delay = delay;
            Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
        }

        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        {
            await stream.FlushAsync();
            await Task.Delay(_delay);
            await stream.WriteAsync(_bytes);
        }

        protected override bool TryComputeLength(out long length)
        {
            length = _bytes.Length;
            return true;
        }
    }
}
