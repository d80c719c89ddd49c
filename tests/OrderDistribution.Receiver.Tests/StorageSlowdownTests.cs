using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// The receiver when storage slows down or stops answering one call: every delivery is answered in time, no order is
/// lost (how a slow store is given less work: ServiceDefaults.Tests, DependencyResilienceTests).
/// </summary>
public sealed class StorageSlowdownTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(4);

    private readonly string _container = $"outbox-{Guid.NewGuid():N}"[..20];

    [Fact]
    public async Task A_burst_with_one_call_hung_on_an_open_connection_is_answered_in_time_and_stored_once_each()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port);
        using var app = new ReceiverFactory(Azurite.ConnectionStringFor(proxy.Port), "express",
            ("Receiver:Container", _container), ("Storage:RequestTimeout", "00:00:02"),
            ("Messaging:RequestDeadline", $"00:00:0{Deadline.TotalSeconds}"), ("Readiness:Interval", "00:01:00"));
        // Readiness is not asked again during the burst: the call held is one of the orders' own.
        var client = app.CreateClient();
        var orders = TestOrders.Many(1_000);

        var burst = DeliverUntilStoredAsync(client, orders);
        await Task.Delay(100);
        var frozen = proxy.FreezeOneConnectionAsync();
        var longest = await burst;

        Assert.True(frozen.IsCompleted, "no request was held: the test froze no connection");
        Assert.True(longest < Deadline + TimeSpan.FromSeconds(2),
            $"a delivery was answered after {longest.TotalSeconds:0.0} s, deadline {Deadline.TotalSeconds} s");
        var stored = await Outbox.ReadAsync(storage.Azurite.ConnectionString, _container);
        Assert.Equal(orders.Select(o => $"{o.OrderId}.json").Order(), stored.Keys.Order());
        var warnings = app.Logs.AtLeast(LogLevel.Warning).ToList();
        var hung = warnings.Where(l => l.Message.Contains(
            $"storage did not answer the upload of blob {_container}/", StringComparison.Ordinal)).ToList();
        Assert.True(hung.Count >= 1,
            "no warning named the upload that hung:\n" + string.Join('\n', warnings.Select(l => l.Message)));
        Assert.All(hung,
            l => Assert.True(l.Exception is null && !l.Message.Contains('\n', StringComparison.Ordinal), l.Message));
    }

    [Fact]
    public async Task After_a_readiness_check_storage_did_not_answer_one_hung_call_fails_only_its_own_write()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port);
        using var app = new ReceiverFactory(Azurite.ConnectionStringFor(proxy.Port), "express",
            ("Receiver:Container", _container), ("Storage:RequestTimeout", "00:00:02"),
            ("Messaging:RequestDeadline", $"00:00:0{Deadline.TotalSeconds}"), ("Readiness:Interval", "00:01:00"));
        var client = app.CreateClient();
        var (first, firstIds) = BulkRequest.RawPayload(TestOrders.Many(1), "q-order-express");
        var firstStatuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-express-bulk", BulkRequest.Json(first)));
        Assert.Equal("SUCCESS", firstStatuses[firstIds[0]]);

        // Readiness asks while storage is silent, as on a store too busy to answer within the probe's budget.
        var checkHeld = proxy.FreezeOneConnectionAsync();
        using (var probeBudget = new CancellationTokenSource(TimeSpan.FromSeconds(1)))
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(
                () => app.Services.GetRequiredService<BlobOrderStore>().CheckAsync(probeBudget.Token));
        }

        Assert.True(checkHeld.IsCompleted, "the readiness check was not held");
        var frozen = proxy.FreezeOneConnectionAsync();
        var orders = TestOrders.Many(50);
        var (body, entryIds) = BulkRequest.RawPayload(orders, "q-order-express");
        var statuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));

        Assert.True(frozen.IsCompleted, "no request was held: the test froze no connection");
        var retried = entryIds.Count(id => statuses[id] != "SUCCESS");
        Assert.True(retried <= 1, $"{retried} of 50 writes failed with one call hung: they waited behind it");
    }

    /// <summary>As the sidecar delivers: two bulks of 100 at a time, what is answered RETRY delivered again.</summary>
    /// <returns>The longest time a delivery took to be answered.</returns>
    private static async Task<TimeSpan> DeliverUntilStoredAsync(HttpClient client, List<Contracts.Order> orders)
    {
        var pending = new Queue<List<Contracts.Order>>(orders.Chunk(100).Select(c => c.ToList()));
        var longest = TimeSpan.Zero;
        var clock = Stopwatch.StartNew();
        while (pending.Count > 0 && clock.Elapsed < TimeSpan.FromSeconds(90))
        {
            var round = Enumerable.Range(0, Math.Min(2, pending.Count)).Select(_ => pending.Dequeue()).ToList();
            var answers = await Task.WhenAll(round.Select(async bulk =>
            {
                var (body, entryIds) = BulkRequest.RawPayload(bulk, "q-order-express");
                var answered = Stopwatch.StartNew();
                var statuses = await BulkRequest.StatusesAsync(
                    await client.PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));
                return (Took: answered.Elapsed, Again: bulk.Where((_, i) => statuses[entryIds[i]] == "RETRY").ToList());
            }));
            foreach (var (took, again) in answers)
            {
                longest = took > longest ? took : longest;
                if (again.Count > 0)
                {
                    pending.Enqueue(again);
                }
            }
        }

        return longest;
    }
}
