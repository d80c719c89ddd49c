using System.Text;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.Messaging.Tests.Inbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// The seed hit "the message is too large" at 500 orders a batch; no bulk publish request may exceed the budget.
/// </summary>
public sealed class BulkPublishBudgetTests
{
    private const int Budget = 131_072;

    [Fact]
    public async Task Over_HTTP_no_bulk_publish_request_body_exceeds_the_budget_so_a_capped_broker_takes_them_all()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        sidecar.MaxBulkRequestBytes = Budget;
        using var publishing = PublishingOver(sidecar);
        var publisher = publishing.GetRequiredService<BulkOrderPublisher>();
        var entries = TestOrders.Many(500, descriptionLength: 1_500)
            .Select(o => new OutboundMessage(Guid.NewGuid().ToString(), OrderJson.Serialize(o)))
            .ToList();

        var failed = await publisher.PublishAsync("q-order-express", entries, CancellationToken.None);

        Assert.Empty(failed);
        var requests = sidecar.BulkPublishes("q-order-express").ToList();
        Assert.True(requests.Count > 1);
        Assert.All(requests, r => Assert.True(r.Body.Length <= Budget, $"request of {r.Body.Length} bytes"));
        Assert.Equal(
            entries.Select(e => OrderJson.Deserialize(e.Payload).OrderId).Order(),
            requests.SelectMany(r => r.Json.EnumerateArray())
                .Select(e => OrderJson.Deserialize(e.GetProperty("event")).OrderId).Order());
    }

    [Fact]
    public void Chunks_keep_the_entries_in_order_and_lose_none()
    {
        var entries = Enumerable.Range(0, 100)
            .Select(i => new OutboundMessage($"e{i}", new byte[100 + (i * 37 % 900)]))
            .ToList();

        var chunks = BulkPublishBudget.Chunk(entries, 4_096);

        Assert.Equal(entries, chunks.SelectMany(c => c));
        Assert.All(chunks, c => Assert.True(c.Sum(m => BulkPublishBudget.CostOf(m)) <= 4_096));
    }

    [Fact]
    public void A_chunk_may_fill_its_budget_to_the_byte()
    {
        OutboundMessage[] entries = [Costing(2_048, "a"), Costing(2_048, "b"), Costing(1, "c")];

        var chunks = BulkPublishBudget.Chunk(entries, 4_096);

        Assert.Equal([["a", "b"], ["c"]], chunks.Select(c => c.Select(m => m.EntryId)));
    }

    [Fact]
    public void An_entry_over_the_budget_goes_alone_between_its_neighbours_and_no_chunk_is_empty()
    {
        OutboundMessage[] entries = [Costing(5_000, "big"), Costing(300, "a"), Costing(9_000, "huge"),
            Costing(300, "b")];

        var chunks = BulkPublishBudget.Chunk(entries, 4_096);

        Assert.Equal([["big"], ["a"], ["huge"], ["b"]], chunks.Select(c => c.Select(m => m.EntryId)));
        Assert.Empty(BulkPublishBudget.Chunk([], 4_096));
    }

    [Fact]
    public void Each_entry_is_charged_its_payload_the_overhead_and_the_UTF8_bytes_of_every_metadata_key_and_value()
    {
        var message = new OutboundMessage("e", new byte[100]);
        var metadata = new Dictionary<string, string> { ["rawPayload"] = "true", ["région"] = "zürich" };

        Assert.Equal(100 + BulkPublishBudget.PerEntryOverheadBytes, BulkPublishBudget.CostOf(message));
        Assert.Equal(100 + BulkPublishBudget.PerEntryOverheadBytes + (10 + 4) + (7 + 7),
            BulkPublishBudget.CostOf(message, metadata));
    }

    [Fact]
    public void Metadata_copied_onto_every_entry_makes_fewer_entries_fit_a_chunk()
    {
        var entries = Enumerable.Range(0, 4).Select(i => Costing(1_000, $"e{i}")).ToList();
        var metadata = new Dictionary<string, string> { ["k"] = "v" };

        Assert.Single(BulkPublishBudget.Chunk(entries, 4_000));
        Assert.Equal(2, BulkPublishBudget.Chunk(entries, 4_000, metadata).Count);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(BulkPublishBudget.PerEntryOverheadBytes)]
    public void A_budget_that_no_entry_can_fit_is_refused(int maxBytes)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => BulkPublishBudget.Chunk([Costing(300, "a")], maxBytes));
    }

    [Fact]
    public async Task An_order_too_large_for_any_batch_is_published_on_its_own()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        using var publishing = PublishingOver(sidecar, maxBytes: 2_048);
        var publisher = publishing.GetRequiredService<BulkOrderPublisher>();
        var huge = new OutboundMessage("big",
            OrderJson.Serialize(TestOrders.Make(1, Delivery.Express, descriptionLength: 4_000)));
        var small = new OutboundMessage("small", OrderJson.Serialize(TestOrders.Make(2, Delivery.Express)));

        var failed = await publisher.PublishAsync("q-order-express", [huge, small], CancellationToken.None);

        Assert.Empty(failed);
        Assert.Single(sidecar.Requests, r => r.Path == "/v1.0/publish/order-pubsub/q-order-express");
        Assert.Single(sidecar.BulkPublishes("q-order-express"));
    }

    [Fact]
    public async Task Progress_is_told_of_every_entry_once_whether_published_or_refused_for_its_size()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        using var publishing = EmulatorDaprClient.Publishing(sidecar.Address, ("Messaging:MaxBulkPublishBytes", "4096"),
            ("Messaging:MaxMessageBytes", "4096"));
        var publisher = publishing.GetRequiredService<BulkOrderPublisher>();
        var entries = TestOrders.Many(20).Append(TestOrders.Make(99, Delivery.Express, descriptionLength: 10_000))
            .Select(o => new OutboundMessage($"e{o.OrderId}", OrderJson.Serialize(o)))
            .ToList();
        var told = new Told();

        var failed = await publisher.PublishAsync("q-order-express", entries, CancellationToken.None, progress: told);

        Assert.Equal(["e99"], failed);
        Assert.Equal(21, told.Counts.Sum());
        Assert.Equal(sidecar.BulkPublishes("q-order-express").Count() + 1, told.Counts.Count);
    }

    [Fact]
    public async Task A_bulk_of_500_large_orders_goes_out_in_several_publishes_each_under_the_budget_every_order_once()
    {
        await using var sidecar = await EmulatedSidecar.StartRecordingAsync();
        await using var app = await EntryPointsHost.ForwardingAsync(sidecar.Address,
            ("Messaging:MaxMessagesCount", "500"));
        var orders = TestOrders.Many(500, descriptionLength: 1_500);
        var (body, entryIds) = BulkRequest.RawPayload(orders, "q-order-ingress");

        var statuses = await BulkRequest.StatusesAsync(
            await app.Client.PostAsync(EntryPointsHost.Routes.Bulk, BulkRequest.Json(body)));

        Assert.All(entryIds, id => Assert.Equal("SUCCESS", statuses[id]));
        Assert.True(sidecar.BulkPublishes("q-order-express").Count() > 1, "express went out in one publish");
        Assert.True(sidecar.BulkPublishes("q-order-standard").Count() > 1, "standard went out in one publish");
        var publishes = sidecar.Requests.Where(r =>
            r.Path.StartsWith("/v1.0-alpha1/publish/bulk/", StringComparison.Ordinal)).ToList();
        Assert.All(publishes, p => Assert.True(
            PayloadsOf(p)
                .Sum(payload => BulkPublishBudget.CostOf(new OutboundMessage("", payload), MetadataOf(p))) <= Budget,
            $"a publish of {PayloadsOf(p).Count} entries is over budget"));
        var published = publishes.SelectMany(PayloadsOf).Select(payload => OrderJson.Deserialize(payload).OrderId)
            .ToList();
        Assert.Equal(orders.Select(o => o.OrderId).Order(), published.Order());
    }

    /// <summary>Each entry's order as the app sent it: the event's own JSON.</summary>
    private static List<byte[]> PayloadsOf(SidecarRequest publish) =>
        publish.Json.EnumerateArray().Select(e => Encoding.UTF8.GetBytes(e.GetProperty("event").GetRawText())).ToList();

    /// <summary>The request's metadata, as the app gave it (<c>metadata.</c> query parameters).</summary>
    private static Dictionary<string, string> MetadataOf(SidecarRequest publish) =>
        publish.Query.Where(q => q.Key.StartsWith("metadata.", StringComparison.Ordinal))
            .ToDictionary(q => q.Key["metadata.".Length..], q => q.Value);

    /// <summary>Keeps what it is told, at once (<see cref="Progress{T}"/> would post it later).</summary>
    private sealed class Told : IProgress<int>
    {
        public System.Collections.Concurrent.ConcurrentQueue<int> Counts { get; } = new();

        public void Report(int value) => Counts.Enqueue(value);
    }

    /// <returns>An entry whose cost without metadata is <paramref name="cost"/> bytes, at least the overhead.</returns>
    private static OutboundMessage Costing(int cost, string entryId) =>
        new(entryId, new byte[Math.Max(0, cost - BulkPublishBudget.PerEntryOverheadBytes)]);

    private static ServiceProvider PublishingOver(EmulatedSidecar sidecar, int maxBytes = Budget) =>
        EmulatorDaprClient.Publishing(sidecar.Address,
            ("Messaging:MaxBulkPublishBytes", maxBytes.ToString(System.Globalization.CultureInfo.InvariantCulture)));
}
