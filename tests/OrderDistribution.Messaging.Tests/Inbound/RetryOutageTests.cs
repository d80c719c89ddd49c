using System.Text.RegularExpressions;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Time.Testing;
using OrderDistribution.Messaging.Inbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// Requests answered RETRY are logged as one outage on the process's clock (here a fake one): a warning when it starts,
/// one at most every 5 s while it lasts counting what came since the line before, and one line when it ends.
/// </summary>
public sealed partial class RetryOutageTests
{
    private readonly FakeTimeProvider _clock = new();

    [Fact]
    public async Task Each_warning_of_a_long_outage_counts_the_requests_since_the_line_before_and_the_end_all_of_them()
    {
        await using var app = await EntryPointsHost.StartAsync(new FailingHandler(),
            services => services.AddSingleton<TimeProvider>(_clock));

        await RetryAsync(app, requests: 1); // 0 s: the outage starts
        for (var second = 1; second <= 5; second++)
        {
            _clock.Advance(TimeSpan.FromSeconds(1));
            await RetryAsync(app, requests: 2); // 2 a second, after each tick: 8 before the tick at 5 s
        }

        for (var second = 6; second <= 10; second++)
        {
            _clock.Advance(TimeSpan.FromSeconds(1));
            await RetryAsync(app, requests: 1); // 1 a second: the tick at 10 s counts 2 + 4 since, not 14
        }

        _clock.Advance(TimeSpan.FromSeconds(2)); // quiet for exactly the quiet period: the outage ends at 12 s

        await RetryAsync(app, requests: 1); // 12 s: a second outage, whose start the pace keeps quiet
        for (var second = 13; second <= 15; second++)
        {
            _clock.Advance(TimeSpan.FromSeconds(1));
            await RetryAsync(app, requests: 1); // the tick at 15 s counts this outage's 3 requests, none before
        }

        var lines = app.Logs.Lines.Where(l => l.Message.StartsWith("Requests from", StringComparison.Ordinal))
            .Select(l => (l.Level, EntryId().Replace(l.Message, "(entry)"))).ToList();
        const string Source = "Requests from q-order-ingress (pubsub-bulk) are";
        Assert.Collection(lines,
            l => Assert.Equal((LogLevel.Warning, $"{Source} answered RETRY: 2 entries in the first; one warning at " +
                "most every 5 s while it lasts; first failure: (entry): busy 1"), l),
            l => Assert.Equal((LogLevel.Warning, $"{Source} still answered RETRY after 5 s: 8 requests with 16 " +
                "entries since the last line; first failure: (entry): busy 2"), l),
            l => Assert.Equal((LogLevel.Warning, $"{Source} still answered RETRY after 10 s: 6 requests with 12 " +
                "entries since the last line; first failure: (entry): busy 10"), l),
            l => Assert.Equal((LogLevel.Information, $"{Source} answered again: for 10 s, 16 requests were answered " +
                "RETRY, with 32 entries in all"), l),
            l => Assert.Equal((LogLevel.Warning, $"{Source} still answered RETRY after 3 s: 3 requests with 6 " +
                "entries since the last line; first failure: (entry): busy 17"), l));
    }

    /// <summary>The entry ids the requests are made with, new for each.</summary>
    [GeneratedRegex(@"(?<=first failure: )[^:]+(?=: busy \d+$)")]
    private static partial Regex EntryId();

    private static async Task RetryAsync(EntryPointsHost app, int requests)
    {
        for (var i = 0; i < requests; i++)
        {
            var (body, _) = BulkRequest.RawPayload(TestOrders.Many(2), "q-order-ingress");
            var statuses = await BulkRequest.StatusesAsync(
                await app.Client.PostAsync(EntryPointsHost.Routes.Bulk, BulkRequest.Json(body)));
            Assert.All(statuses.Values, s => Assert.Equal("RETRY", s));
        }
    }

    /// <summary>Fails every order of a request with "busy N", N the request's number.</summary>
    private sealed class FailingHandler : IOrderHandler
    {
        private int _requests;

        public Task HandleAsync(IReadOnlyList<InboundOrder> orders, MessagingModel model, IOrderProgress progress,
            CancellationToken cancellationToken)
        {
            var request = Interlocked.Increment(ref _requests);
            foreach (var order in orders)
            {
                progress.MarkFailed(order.EntryId, $"busy {request}");
            }

            return Task.CompletedTask;
        }
    }
}
