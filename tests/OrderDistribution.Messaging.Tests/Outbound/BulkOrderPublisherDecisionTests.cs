using System.Diagnostics;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// The bulk publisher's decisions one at a time: what every request carries, where the byte budget sends an order,
/// what an order published alone is answered, what the circuit hears of a partly failed bulk, and the deadline.
/// </summary>
public sealed class BulkOrderPublisherDecisionTests : BulkOrderPublishing
{
    [Fact]
    public async Task Every_bulk_request_and_entry_carries_rawPayload_the_byte_budget_and_the_callers_metadata()
    {
        await using var publishing = Publishing(("Messaging:MaxBulkPublishBytes", "65536"));

        await publishing.GetRequiredService<BulkOrderPublisher>().PublishAsync(
            Topic, Messages(TestOrders.Many(3)), CancellationToken.None,
            metadata: new Dictionary<string, string> { ["ttlInSeconds"] = "60" });

        var request = Assert.Single(Sidecar.BulkPublishes(Topic));
        Assert.Equal("true", request.Query["metadata.rawPayload"]);
        Assert.Equal("65536", request.Query["metadata.maxBulkPubBytes"]);
        Assert.Equal("60", request.Query["metadata.ttlInSeconds"]);
        Assert.All(request.Json.EnumerateArray(), entry =>
        {
            var metadata = entry.GetProperty("metadata");
            Assert.Equal("true", metadata.GetProperty("rawPayload").GetString());
            Assert.Equal("60", metadata.GetProperty("ttlInSeconds").GetString());
        });
    }

    [Theory]
    [InlineData(0, true)]
    [InlineData(1, false)]
    public async Task An_order_that_costs_the_byte_budget_goes_in_a_bulk_request_and_one_byte_more_goes_alone(
        int bytesOverBudget, bool inBulk)
    {
        const int budget = 4096;
        var message = MessageCosting(budget + bytesOverBudget, BulkOrderPublisher.RequestMetadata(budget));
        await using var publishing = Publishing(("Messaging:MaxBulkPublishBytes", "4096"));

        var unconfirmed = await PublishAsync(publishing, [message]);

        Assert.Empty(unconfirmed);
        Assert.Equal(inBulk ? 1 : 0, Sidecar.BulkPublishes(Topic).Count());
        Assert.Equal(inBulk ? 0 : 1,
            Sidecar.Requests.Count(r => r.Path.StartsWith("/v1.0/publish/", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task An_order_over_the_byte_budget_the_sidecar_refuses_for_good_alone_is_dropped_once_not_retried()
    {
        Sidecar.PublishAnswer = _ => (413, "grpc: received message larger than max (5000435 vs. 4194304)");
        await using var publishing = Publishing(("Messaging:MaxBulkPublishBytes", "1024"));
        var large = Message(TestOrders.Make(7, Delivery.Express, descriptionLength: 2_000));

        var unconfirmed = await PublishAsync(publishing, [large, .. Messages(TestOrders.Many(2))]);

        Assert.Equal(["7"], unconfirmed);
        Assert.Equal(["7"], Dropped.Keys);
        Assert.Contains("the sidecar refuses it for good", Dropped["7"], StringComparison.Ordinal);
        Assert.Empty(Failed);
        Assert.Equal(["1", "2"], Published.Order());
    }

    [Fact]
    public async Task An_order_over_the_byte_budget_the_sidecar_fails_for_now_alone_is_reported_failed_not_dropped()
    {
        Sidecar.PublishAnswer = _ => (503, "");
        await using var publishing = Publishing(("Messaging:MaxBulkPublishBytes", "1024"));
        var large = Message(TestOrders.Make(7, Delivery.Express, descriptionLength: 2_000));

        var unconfirmed = await PublishAsync(publishing, [large]);

        Assert.Equal(["7"], unconfirmed);
        Assert.Empty(Dropped);
        Assert.Empty(Published);
        Assert.StartsWith("bulk publish of 1 entries to q-order-express failed", Failed["7"], StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_bulk_publish_the_broker_takes_in_part_makes_an_app_unready_for_a_refusal_of_every_order_ready()
    {
        await using var publishing = Publishing();
        var failures = publishing.GetRequiredService<SidecarFailureJudge>();
        Sidecar.BulkAnswer = _ => (404, """{"errorCode":"ERR_PUBSUB_NOT_FOUND","message":"pubsub is not found"}""");
        await PublishAsync(publishing, Messages(TestOrders.Many(2)));
        Assert.False(await failures.IsReadyAsync());

        // From now on the broker takes every entry but order 12, which fails for now on every try.
        Sidecar.BulkAnswer = request => (500, JsonSerializer.Serialize(new
        {
            failedEntries = new[] { new { entryId = EntryIdOfOrder(request, 12), error = "busy" } },
            errorCode = "ERR_PUBSUB_PUBLISH_MESSAGE",
        }));
        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(3, firstId: 11)));

        Assert.Equal(["12"], unconfirmed);
        Assert.Equal(["11", "13"], Published.Order());
        Assert.True(await failures.IsReadyAsync());
    }

    [Fact]
    public async Task The_chunks_of_one_delivery_go_four_requests_at_once_never_more()
    {
        var inFlight = 0;
        var most = 0;
        using var fourAtOnce = new ManualResetEventSlim();
        Sidecar.BulkAnswer = _ =>
        {
            var now = Interlocked.Increment(ref inFlight);
            lock (fourAtOnce)
            {
                most = Math.Max(most, now);
            }

            if (now >= 4)
            {
                fourAtOnce.Set();
            }

            // Each request is held until four are in flight together (or 5 s pass), then a moment longer.
            fourAtOnce.Wait(TimeSpan.FromSeconds(5));
            Thread.Sleep(50);
            Interlocked.Decrement(ref inFlight);
            return (200, "");
        };
        // One order per request: two do not fit in the budget.
        await using var publishing = Publishing(("Messaging:MaxBulkPublishBytes", "1024"));

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(12, descriptionLength: 300)));

        Assert.Empty(unconfirmed);
        Assert.Equal(12, Sidecar.BulkPublishes(Topic).Count());
        Assert.Equal(4, most);
    }

    [Fact]
    public async Task A_publish_to_a_sidecar_that_never_answers_returns_by_the_callers_deadline_with_nothing_confirmed()
    {
        Sidecar.Hang = new TaskCompletionSource().Task;
        // A per-call timeout far past the deadline: only the deadline can end the wait.
        await using var publishing = Publishing(("Dapr:RequestTimeout", "00:02:00"));
        using var deadline = new CancellationTokenSource(TimeSpan.FromSeconds(1));
        var clock = Stopwatch.StartNew();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(3)), deadline.Token);

        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30),
            $"returned after {clock.Elapsed.TotalSeconds:0.0} s, deadline 1 s");
        Assert.Equal(["1", "2", "3"], unconfirmed.Order());
        Assert.Empty(Published);
        Assert.Empty(Dropped);
    }

    /// <summary>An order whose bulk entry costs exactly <paramref name="cost"/> bytes with this metadata.</summary>
    private static OutboundMessage MessageCosting(int cost, IReadOnlyDictionary<string, string> metadata)
    {
        var probe = Message(TestOrders.Make(1, Delivery.Express, descriptionLength: 1_000));
        var length = 1_000 + cost - BulkPublishBudget.CostOf(probe, metadata);
        var message = Message(TestOrders.Make(1, Delivery.Express, descriptionLength: length));
        Assert.Equal(cost, BulkPublishBudget.CostOf(message, metadata));
        return message;
    }
}
