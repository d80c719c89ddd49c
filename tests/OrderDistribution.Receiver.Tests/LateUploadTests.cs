using Azure.Storage.Blobs;
using Microsoft.Extensions.Time.Testing;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Receiver.Tests;

/// <summary>
/// An upload that outlives its delivery's wait (<see cref="OrderUploads"/>): the order it stored is not uploaded
/// again for its next delivery, and one still running is waited for, not sent twice.
/// </summary>
public sealed class LateUploadTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    private readonly string _container = $"outbox-{Guid.NewGuid():N}"[..20];

    [Fact]
    public async Task An_order_stored_after_its_delivery_was_answered_RETRY_is_answered_SUCCESS_next_without_an_upload()
    {
        var order = TestOrders.Make(2, Delivery.Express);
        using var receiver = await RetriedWhileFrozenAsync(order);
        var client = receiver.Client;

        receiver.Proxy.Frozen = false;
        var blob = Outbox.Container(storage.Azurite.ConnectionString, _container)
            .GetBlobClient(OrderBlob.NameOf(order));
        var stored = await StoredETagAsync(blob);

        Assert.Equal("SUCCESS", await DeliverAsync(client, order));
        Assert.Equal(stored, (await blob.GetPropertiesAsync()).Value.ETag);
        // Remembered once: a later delivery of the same order is written as any other.
        Assert.Equal("SUCCESS", await DeliverAsync(client, order));
        Assert.NotEqual(stored, (await blob.GetPropertiesAsync()).Value.ETag);
    }

    [Fact]
    public async Task A_delivery_that_waited_out_the_late_upload_leaves_no_SUCCESS_behind_for_a_later_one()
    {
        var order = TestOrders.Make(2, Delivery.Express);
        using var receiver = await RetriedWhileFrozenAsync(order);
        var client = receiver.Client;

        var next = DeliverAsync(client, order);
        await Task.Delay(TimeSpan.FromMilliseconds(200));
        receiver.Proxy.Frozen = false;
        Assert.Equal("SUCCESS", await next);

        // The outbox emptied (as `order-load clear` does) and the order sent anew: it is stored again.
        var blob = Outbox.Container(storage.Azurite.ConnectionString, _container)
            .GetBlobClient(OrderBlob.NameOf(order));
        await blob.DeleteAsync();
        Assert.Equal("SUCCESS", await DeliverAsync(client, order));
        Assert.True(await blob.ExistsAsync(), "answered SUCCESS, but the order was not stored again");
    }

    [Fact]
    public async Task An_upload_still_running_is_what_the_next_delivery_of_its_order_waits_for()
    {
        var uploads = new OrderUploads(TimeProvider.System);
        var answer = new TaskCompletionSource();

        var tracked = uploads.TrackAsync("42.json", answer.Task, deliveryLeft: () => true);

        var running = uploads.Running("42.json");
        Assert.NotNull(running);
        Assert.False(running.IsCompleted);
        Assert.Null(uploads.Running("43.json"));
        answer.SetResult();
        await running;
        // Remembered by the time a delivery that waited for the upload goes on, so that one can spend it.
        Assert.True(uploads.TakeStoredLate("42.json"));
        Assert.False(uploads.TakeStoredLate("42.json"));
        await tracked;
        Assert.Null(uploads.Running("42.json"));
    }

    [Fact]
    public async Task Only_uploads_that_stored_after_their_delivery_left_are_remembered_and_the_oldest_go_first()
    {
        var uploads = new OrderUploads(TimeProvider.System, capacity: 2);

        await uploads.TrackAsync("1.json", Task.CompletedTask, deliveryLeft: () => false);
        await uploads.TrackAsync("2.json", Task.CompletedTask, deliveryLeft: () => true);
        await uploads.TrackAsync("3.json", Task.CompletedTask, deliveryLeft: () => true);
        await uploads.TrackAsync("4.json", Task.CompletedTask, deliveryLeft: () => true);
        await Assert.ThrowsAsync<IOException>(
            () => uploads.TrackAsync("5.json", Task.FromException(new IOException("reset")), deliveryLeft: () => true));

        Assert.False(uploads.TakeStoredLate("1.json"));
        Assert.False(uploads.TakeStoredLate("2.json"));
        Assert.True(uploads.TakeStoredLate("3.json"));
        Assert.True(uploads.TakeStoredLate("4.json"));
        Assert.False(uploads.TakeStoredLate("5.json"));
    }

    [Fact]
    public async Task A_late_store_stands_for_the_next_delivery_only_while_a_redelivery_is_due()
    {
        var clock = new FakeTimeProvider();
        var uploads = new OrderUploads(clock);
        await uploads.TrackAsync("1.json", Task.CompletedTask, deliveryLeft: () => true);
        await uploads.TrackAsync("2.json", Task.CompletedTask, deliveryLeft: () => true);

        clock.Advance(OrderUploads.StoredLateFor);
        Assert.True(uploads.TakeStoredLate("1.json"));
        clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.False(uploads.TakeStoredLate("2.json"));
    }

    [Fact]
    public async Task An_order_stored_late_again_stands_for_its_next_delivery_from_its_last_store()
    {
        var clock = new FakeTimeProvider();
        var uploads = new OrderUploads(clock);
        await uploads.TrackAsync("1.json", Task.CompletedTask, deliveryLeft: () => true);
        clock.Advance(OrderUploads.StoredLateFor / 2);
        await uploads.TrackAsync("1.json", Task.CompletedTask, deliveryLeft: () => true);

        clock.Advance(OrderUploads.StoredLateFor);
        Assert.True(uploads.TakeStoredLate("1.json"));
        Assert.False(uploads.TakeStoredLate("1.json"));
    }

    /// <summary>
    /// A receiver whose storage is behind a proxy, with one order stored; then <paramref name="order"/>'s delivery
    /// answered RETRY while storage is frozen, which it stays, its upload still running.
    /// </summary>
    private async Task<FrozenReceiver> RetriedWhileFrozenAsync(Order order)
    {
        var proxy = new TcpCutProxy(storage.Azurite.Port);
        var app = new ReceiverFactory(Azurite.ConnectionStringFor(proxy.Port), "express",
            ("Receiver:Container", _container), ("Storage:RequestTimeout", "00:00:01"),
            ("Messaging:RequestDeadline", "00:00:04"), ("Readiness:Interval", "00:01:00"));
        var receiver = new FrozenReceiver(proxy, app, app.CreateClient());
        Assert.Equal("SUCCESS", await DeliverAsync(receiver.Client, TestOrders.Make(1, Delivery.Express)));

        proxy.Frozen = true;
        Assert.Equal("RETRY", await DeliverAsync(receiver.Client, order));
        return receiver;
    }

    private static async Task<string> DeliverAsync(HttpClient client, Order order)
    {
        var (body, entryIds) = BulkRequest.RawPayload([order], "q-order-express");
        var statuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-express-bulk", BulkRequest.Json(body)));
        return statuses[entryIds[0]];
    }

    private static async Task<Azure.ETag> StoredETagAsync(BlobClient blob)
    {
        for (var tries = 0; tries < 100 && !await blob.ExistsAsync(); tries++)
        {
            await Task.Delay(100);
        }

        return (await blob.GetPropertiesAsync()).Value.ETag;
    }

    private sealed record FrozenReceiver(TcpCutProxy Proxy, ReceiverFactory App, HttpClient Client) : IDisposable
    {
        public void Dispose()
        {
            App.Dispose();
            Proxy.Dispose();
        }
    }
}
