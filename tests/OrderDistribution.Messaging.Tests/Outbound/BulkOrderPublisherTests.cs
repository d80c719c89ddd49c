using System.Text;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// Bulk publishing against the sidecar emulator, by what the sidecar's answer says about the order: an order that can
/// never go is dropped once (before any call when its size says so), a transient failure is retried, and a refusal of
/// every order is never a drop and makes the app not ready.
/// </summary>
public sealed class BulkOrderPublisherTests : BulkOrderPublishing
{
    [Fact]
    public async Task An_order_larger_than_the_sidecar_takes_is_dropped_once_without_a_call_and_the_rest_are_published()
    {
        await using var publishing = Publishing(
            ("Messaging:MaxMessageBytes", "104857600"), ("Messaging:MaxMessagesCount", "5"));
        var orders = Messages(TestOrders.Many(4));
        orders.Insert(2, Message(TestOrders.Make(99, Delivery.Express, descriptionLength: 5_000_000)));

        var unconfirmed = await PublishAsync(publishing, orders);

        Assert.Equal(["99"], unconfirmed);
        Assert.Equal(["99"], Dropped.Keys);
        Assert.Contains("more than the sidecar takes in one request (4 MiB, Dapr:MaxRequestBodySizeMb)", Dropped["99"],
            StringComparison.Ordinal);
        Assert.Equal(["1", "2", "3", "4"], Published.Order());
        Assert.Empty(Failed);
        Assert.DoesNotContain(Sidecar.Requests, r => r.Body.Length > 1_000_000);
    }

    [Fact]
    public async Task An_order_larger_than_the_brokers_largest_message_is_dropped_without_a_call()
    {
        await using var publishing = Publishing(("Messaging:MaxMessageBytes", "4096"));
        var orders = Messages(TestOrders.Many(2));
        orders.Add(Message(TestOrders.Make(9, Delivery.Express, descriptionLength: 5_000)));

        await PublishAsync(publishing, orders);

        Assert.Contains("more than the broker's largest message (4096 bytes, Messaging:MaxMessageBytes)", Dropped["9"],
            StringComparison.Ordinal);
        Assert.Equal(["1", "2"], Published.Order());
        Assert.DoesNotContain(Sidecar.Requests,
            r => Encoding.UTF8.GetString(r.Body).Contains("\"OrderId\":9", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_sidecar_that_refuses_a_request_for_its_size_has_only_the_order_that_makes_it_too_large_dropped()
    {
        // The sidecar refuses every request that carries order 3 as too large (ResourceExhausted): the app cannot know
        // which.
        Sidecar.BulkAnswer = request =>
            Encoding.UTF8.GetString(request.Body).Contains("\"OrderId\":3", StringComparison.Ordinal)
            ? (413, "grpc: received message larger than max (5000435 vs. 4194304)")
            : (200, "");
        await using var publishing = Publishing();

        await PublishAsync(publishing, Messages(TestOrders.Many(8)));

        Assert.Equal(["3"], Dropped.Keys);
        Assert.Contains("ResourceExhausted", Dropped["3"], StringComparison.Ordinal);
        Assert.Equal(["1", "2", "4", "5", "6", "7", "8"], Published.Order());
        Assert.Empty(Failed);
        var warnings = Logs.AtLeast(LogLevel.Warning)
            .Select(l => l.Message + " | " + l.Exception?.GetType().Name + l.Exception?.Message +
            l.Exception?.InnerException?.Message).ToList();
        Assert.True(warnings.Count == 0, string.Join("\n", warnings));
    }

    [Fact]
    public async Task An_entry_the_broker_refuses_for_its_size_is_dropped_and_never_sent_again()
    {
        Sidecar.FailEntry = entry => entry.ToString().Contains("\"OrderId\":2", StringComparison.Ordinal);
        Sidecar.BulkAnswer = request =>
            Encoding.UTF8.GetString(request.Body).Contains("\"OrderId\":2", StringComparison.Ordinal)
            ? (500, $$"""{"failedEntries":[{"entryId":"{{EntryIdOfOrder(request, 2)}}","error":"the message is """ +
                $$"""too large"}],"errorCode":"ERR_PUBSUB_PUBLISH_MESSAGE"}""")
            : (200, "");
        await using var publishing = Publishing();

        await PublishAsync(publishing, Messages(TestOrders.Many(3)));

        Assert.Equal(["2"], Dropped.Keys);
        Assert.Equal(["1", "3"], Published.Order());
        Assert.Single(Sidecar.BulkPublishes(Topic));
    }

    [Fact]
    public async Task A_transient_failure_is_tried_again_then_left_to_be_delivered_again_and_nothing_is_dropped()
    {
        Sidecar.BulkAnswer = _ =>
            (500, """{"errorCode":"ERR_PUBSUB_PUBLISH_MESSAGE","message":"error when publishing to topic """ +
            """q-order-express in pubsub order-pubsub: OOM command not allowed"}""");
        await using var publishing = Publishing();

        var unconfirmed = await PublishAsync(publishing, Messages(TestOrders.Many(3)));

        Assert.Equal(3, unconfirmed.Count);
        Assert.Empty(Dropped);
        Assert.Equal(3, Failed.Count);
        Assert.Equal(3, Sidecar.BulkPublishes(Topic).Count());
        Assert.True(await publishing.GetRequiredService<SidecarFailureJudge>().IsReadyAsync());
    }

    [Theory]
    [InlineData(404, """{"errorCode":"ERR_PUBSUB_NOT_FOUND","message":"pubsub order-pubsub is not found"}""")]
    [InlineData(401, "")]
    [InlineData(403,
        """{"errorCode":"ERR_PUBSUB_FORBIDDEN","message":"topic q-order-express is not allowed for app id """ +
        """distributor"}""")]
    public async Task Refusing_every_order_drops_none_and_makes_the_app_unready_with_one_error_line_until_a_call_passes(
        int status, string body)
    {
        Sidecar.BulkAnswer = _ => (status, body);
        await using var publishing = Publishing();
        var failures = publishing.GetRequiredService<SidecarFailureJudge>();

        await PublishAsync(publishing, Messages(TestOrders.Many(2)));
        await PublishAsync(publishing, Messages(TestOrders.Many(2, firstId: 10)));

        Assert.Empty(Dropped);
        Assert.Equal(4, Failed.Count);
        Assert.Equal(2, Sidecar.BulkPublishes(Topic).Count());
        Assert.False(await failures.IsReadyAsync());
        var error = Assert.Single(Logs.AtLeast(LogLevel.Error));
        Assert.Contains("refuses every order", error.Message, StringComparison.Ordinal);
        Assert.Null(error.Exception);

        Sidecar.BulkAnswer = _ => (200, "");
        await PublishAsync(publishing, Messages(TestOrders.Many(1, firstId: 20)));

        Assert.True(await failures.IsReadyAsync());
        Assert.Contains("20", Published);
    }

    [Fact]
    public async Task Orders_refused_for_good_never_open_the_circuit_for_the_orders_behind_them()
    {
        Sidecar.BulkAnswer = request =>
            Encoding.UTF8.GetString(request.Body).Contains("\"Description\":\"x", StringComparison.Ordinal)
            ? (413, "grpc: received message larger than max")
            : (200, "");
        await using var publishing = Publishing(("Messaging:MaxBulkPublishBytes", "1024"));
        var refused = Enumerable.Range(1, 40)
            .Select(i => Message(TestOrders.Make(i, Delivery.Express) with { Description = "x" })).ToList();

        await PublishAsync(publishing, refused);
        await PublishAsync(publishing, Messages(TestOrders.Many(5, firstId: 100)));

        Assert.Equal(40, Dropped.Count);
        Assert.Equal(5, Published.Count);
        Assert.DoesNotContain(Logs.Lines,
            l => l.Message.StartsWith("Most calls to the Dapr sidecar failed", StringComparison.Ordinal));
    }
}
