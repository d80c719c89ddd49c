using System.Diagnostics;
using System.Net;
using System.Text.RegularExpressions;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// A storage outage met by 500 single deliveries at once, each retried, is logged as one outage per process, not two
/// lines per delivery (a minute of it had been ~162,000 lines). The outage's pace and counts are pinned on a fake clock
/// (Messaging.Tests' <c>RetryOutageTests</c>, ServiceDefaults.Tests' <c>CircuitBreakerTests</c>); this shows them wired
/// into the receiver, over one pace and a bit.
/// </summary>
public sealed partial class OutageLoggingTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    private static readonly TimeSpan Outage = TimeSpan.FromSeconds(6);

    /// <summary>How long every delivery may take to be answered SUCCESS again once storage is back: a loaded
    /// machine's bound.</summary>
    private static readonly TimeSpan Recovery = TimeSpan.FromSeconds(20);

    private readonly string _container = $"outbox-{Guid.NewGuid():N}"[..20];

    [Fact]
    public async Task Storage_refusing_500_requests_at_once_for_6_s_warns_at_most_every_5_s_and_closes_with_the_count()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port);
        using var app = new ReceiverFactory(Azurite.ConnectionStringFor(proxy.Port), "express",
            ("Receiver:Container", _container), ("Messaging:Model", "pubsub-single"));
        var client = app.CreateClient();
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK);
        var orders = TestOrders.Many(500);
        var linesBefore = app.Logs.Lines.Count;

        proxy.Refusing = true;
        var clock = Stopwatch.StartNew();
        var retried = 0;
        while (clock.Elapsed < Outage)
        {
            retried += (await DeliverAsync(client, orders)).Count(a => a == "RETRY");
            await Task.Delay(200);
        }

        proxy.Refusing = false;
        string[] answers;
        do
        {
            answers = await DeliverAsync(client, orders);
            retried += answers.Count(a => a == "RETRY");
        }
        while (answers.Any(a => a == "RETRY") && clock.Elapsed < Outage + Recovery);

        Assert.All(answers, a => Assert.Equal("SUCCESS", a));
        // Once storage is back, a loaded machine can fall behind for a moment more: a second, short outage. Every
        // request answered RETRY is counted by the outage it fell in, and none twice.
        var waited = Stopwatch.StartNew();
        while (CountedByEndedOutages(app, linesBefore) < retried && waited.Elapsed < TimeSpan.FromSeconds(10))
        {
            await Task.Delay(50);
        }

        var lines = app.Logs.Lines.Skip(linesBefore).Where(l => l.Level >= LogLevel.Information).ToList();
        var warnings = lines.Where(l => l.Level >= LogLevel.Warning).ToList();
        TestContext.Current.TestOutputHelper?.WriteLine(
            $"{retried} requests answered RETRY in {clock.Elapsed.TotalSeconds:0.0} s: {lines.Count} lines at " +
            $"Information or above, {warnings.Count} of them warnings");
        Assert.True(warnings.Count <= (int)(clock.Elapsed / TimeSpan.FromSeconds(5)) + 1,
            $"{warnings.Count} warnings in {clock.Elapsed.TotalSeconds:0} s:\n" +
            $"{string.Join('\n', warnings.Select(w => w.Message))}");
        Assert.All(warnings, w => Assert.Null(w.Exception));
        Assert.Equal(retried, CountedByEndedOutages(app, linesBefore));
        Assert.True(retried >= 1_000, $"only {retried} requests were answered RETRY");
        Assert.DoesNotContain(lines, l => l.Message.StartsWith("Request of ", StringComparison.Ordinal));
    }

    /// <summary>The requests answered RETRY that the lines closing an outage count, all outages together.</summary>
    private static int CountedByEndedOutages(ReceiverFactory app, int linesBefore) => app.Logs.Lines
        .Skip(linesBefore)
        .Select(l => OutageEnded().Match(l.Message))
        .Where(m => m.Success)
        .Sum(m => int.Parse(m.Groups["requests"].Value, System.Globalization.CultureInfo.InvariantCulture));

    private static Task<string[]> DeliverAsync(HttpClient client, IEnumerable<Order> orders) =>
        Task.WhenAll(orders.Select(async order =>
        {
            var single = $$"""{"specversion":"1.0","id":"c""" +
                $$"""{{order.OrderId}}","type":"com.dapr.event.sent","data":{{TestOrders.Json(order)}}}""";
            using var response = await client.PostAsync("/q-order-express-single", BulkRequest.Json(single));
            var answer = await response.Content.ReadAsStringAsync();
            return answer.Contains("\"SUCCESS\"", StringComparison.Ordinal) ? "SUCCESS"
                : answer.Contains("\"RETRY\"", StringComparison.Ordinal) ? "RETRY"
                : answer;
        }));

    [GeneratedRegex(@"are answered again: for [0-9.]+ s, (?<requests>[0-9]+) requests were answered RETRY")]
    private static partial Regex OutageEnded();
}
