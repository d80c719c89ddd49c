using System.Diagnostics;
using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// The receiver when storage slows down or stops answering one call: every delivery is answered in time, no order is
/// lost, and a store that stores orders is ready (how a slow store is given less work: ServiceDefaults.Tests,
/// DependencyResilienceTests).
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
        Assert.Equal("SUCCESS", await DeliverOneAsync(client));

        // Readiness asks while storage is silent, as on a store too busy to answer within the probe's budget (the
        // first check is answered by the order stored, so the second is the one that asks storage).
        var store = app.Services.GetRequiredService<BlobOrderStore>();
        await store.CheckAsync(CancellationToken.None);
        var checkHeld = proxy.FreezeOneConnectionAsync();
        using (var probeBudget = new CancellationTokenSource(TimeSpan.FromSeconds(1)))
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => store.CheckAsync(probeBudget.Token));
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

    [Fact]
    public async Task A_store_that_stored_an_order_since_the_last_check_is_ready_without_answering_it_once()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port);
        using var app = SlowStoreReceiver(proxy);
        var (client, store) = await ReadyAsync(app);
        Assert.Equal("SUCCESS", await DeliverOneAsync(client));

        // Storage silent from here: the order stored since the last check is all it has answered.
        proxy.Frozen = true;
        using (var probeBudget = new CancellationTokenSource(TimeSpan.FromSeconds(1)))
        {
            await store.CheckAsync(probeBudget.Token);
        }

        using (var probeBudget = new CancellationTokenSource(TimeSpan.FromSeconds(1)))
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => store.CheckAsync(probeBudget.Token));
        }
    }

    [Fact]
    public async Task A_check_storage_holds_is_answered_by_an_order_stored_while_it_waits_and_the_held_call_given_up()
    {
        using var proxy = new TcpCutProxy(storage.Azurite.Port);
        using var app = SlowStoreReceiver(proxy);
        var (client, store) = await ReadyAsync(app);

        // The check waits its turn, as behind a burst's uploads on a busy store; an upload is answered meanwhile.
        var checkHeld = proxy.FreezeOneConnectionAsync();
        using var probeBudget = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        var check = store.CheckAsync(probeBudget.Token);
        await checkHeld.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.False(check.IsCompleted, "the check was answered although storage held it");
        Assert.Equal("SUCCESS", await DeliverOneAsync(client));

        await check.WaitAsync(TimeSpan.FromSeconds(5));

        // The held call was given up with it: once the order has answered the next check too, the one after asks
        // storage again, and is answered.
        Assert.True(store.CheckAsync(CancellationToken.None).IsCompletedSuccessfully);
        using var nextBudget = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        await store.CheckAsync(nextBudget.Token);
    }

    private ReceiverFactory SlowStoreReceiver(TcpCutProxy proxy) =>
        new(Azurite.ConnectionStringFor(proxy.Port), "express", ("Receiver:Container", _container),
            ("Readiness:Interval", "00:01:00"));

    /// <returns>The receiver's client and store, once it reports ready.</returns>
    private static async Task<(HttpClient Client, BlobOrderStore Store)> ReadyAsync(ReceiverFactory app)
    {
        var client = app.CreateClient();
        await Eventually.StatusAsync(client, "/health", HttpStatusCode.OK);
        return (client, app.Services.GetRequiredService<BlobOrderStore>());
    }

    private static async Task<string> DeliverOneAsync(HttpClient client)
    {
        var (body, entryIds) = BulkRequest.RawPayload(TestOrders.Many(1), "q-order-express");
        var statuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));
        return statuses[entryIds[0]];
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
