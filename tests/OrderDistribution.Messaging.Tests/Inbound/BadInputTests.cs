using System.Net;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// Input that is not an order is kept on the dead-letter queue and answered SUCCESS (200 for a binding); a request that
/// is none at all gets a DROP or a 404; never a 500 the sidecar retries forever. The entry points decide it before any
/// app's handler (here a stub that takes every order) sees an order.
/// </summary>
public sealed class BadInputTests : IAsyncLifetime
{
    private EntryPointsHost _app = null!;

    public async ValueTask InitializeAsync() => _app = await EntryPointsHost.StartAsync();

    [Fact]
    public async Task A_bulk_body_that_is_not_JSON_is_answered_404_so_the_sidecar_drops_it_not_redelivers_it_forever()
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json("{not json"));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task A_single_body_that_is_not_JSON_is_answered_DROP()
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-single", BulkRequest.Json("{not json"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("DROP", await BulkRequest.StatusAsync(response));
    }

    [Fact]
    public async Task A_binding_body_that_is_not_JSON_is_kept_as_it_came_on_the_dead_letter_queue_and_answered_200()
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-input", BulkRequest.Json("{not json"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (letter, model) = Assert.Single(_app.Kept.Letters);
        Assert.Equal(("{not json", MessagingModel.Bindings), (letter.Body, model));
        Assert.StartsWith("not an order: the body is not JSON", letter.Reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""{"id":"x"}""")]
    [InlineData("""[1,2]""")]
    [InlineData("""{"entries":{"entryId":"e1"}}""")]
    [InlineData("""{"entries":"x"}""")]
    public async Task A_bulk_body_without_an_entries_array_is_answered_404_saying_why(string body)
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(body));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Contains("'entries' array", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_single_CloudEvent_whose_id_is_not_text_is_handed_on_like_any_other_and_answered_without_500()
    {
        var order = TestOrders.Json(TestOrders.Make(5, Delivery.Express));
        var response = await _app.Client.PostAsync("/q-order-ingress-single", BulkRequest.Json(
            $$"""{"specversion":"1.0","id":"\uD800abc","type":"com.dapr.event.sent","data":{{order}}}"""));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("SUCCESS", await BulkRequest.StatusAsync(response));
        Assert.Equal("(no readable id)", Assert.Single(_app.Handler.Orders).EntryId);
    }

    [Fact]
    public async Task A_single_CloudEvent_without_an_id_that_holds_no_order_is_kept_under_a_placeholder_id()
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-single", BulkRequest.Json(
            """{"specversion":"1.0","type":"com.dapr.event.sent","data":{"OrderId":1,"Delivery":"Overnight"}}"""));

        Assert.Equal("SUCCESS", await BulkRequest.StatusAsync(response));
        Assert.Equal("(no id)", Assert.Single(_app.Kept.Letters).Letter.EntryId);
    }

    [Fact]
    public async Task A_binding_message_without_a_message_id_that_holds_no_order_is_kept_under_a_placeholder_id()
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-input",
            BulkRequest.Json("""{"OrderId":1,"Delivery":"Overnight"}"""));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("(no message id)", Assert.Single(_app.Kept.Letters).Letter.EntryId);
    }

    [Fact]
    public async Task A_bulk_request_with_no_entries_is_answered_with_no_statuses()
    {
        var response = await _app.Client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json("""{"entries":[]}"""));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Empty(await BulkRequest.StatusesAsync(response));
    }

    [Theory]
    [InlineData("""{"OrderId":1,"OrderGuid":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","Delivery":"Overnight"}""")]
    [InlineData("""{"OrderId":1,"OrderGuid":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","Delivery":7}""")]
    [InlineData("""{"OrderId":1,"Delivery":"Express"}""")]
    [InlineData("""{"OrderGuid":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","Delivery":"Express"}""")]
    [InlineData("""{"OrderId":0,"OrderGuid":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","Delivery":"Express"}""")]
    [InlineData("""{"OrderId":"one","OrderGuid":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","Delivery":"Express"}""")]
    [InlineData("\"bm90IGFuIG9yZGVy\"")]
    [InlineData("42")]
    public async Task An_entry_that_is_not_a_valid_order_is_kept_on_the_dead_letter_queue_in_every_model(
        string @event)
    {
        var client = _app.Client;
        var bulk = $$"""{"entries":[{"entryId":"e1","event":{{@event}},"contentType":"application/json"}]}""";
        var single = $$"""{"specversion":"1.0","id":"c1","type":"com.dapr.event.sent","data":{{@event}}}""";

        var bulkStatuses = await BulkRequest.StatusesAsync(
            await client.PostAsync("/q-order-ingress-bulk", BulkRequest.Json(bulk)));
        var singleResponse = await client.PostAsync("/q-order-ingress-single", BulkRequest.Json(single));
        var bindingResponse = await client.PostAsync("/q-order-ingress-input", BulkRequest.Json(@event));

        Assert.Equal("SUCCESS", bulkStatuses["e1"]);
        Assert.Equal("SUCCESS", await BulkRequest.StatusAsync(singleResponse));
        Assert.Equal(HttpStatusCode.OK, bindingResponse.StatusCode);
        Assert.Empty(_app.Handler.Orders);
        var letters = _app.Kept.Letters.ToList();
        Assert.Equal([MessagingModel.PubSubBulk, MessagingModel.PubSubSingle, MessagingModel.Bindings],
            letters.Select(l => l.Model));
        Assert.Equal(["e1", "c1"], letters.Take(2).Select(l => l.Letter.EntryId));
        // The pub/sub entries' body is the event's data as published; the binding's, the message as it came.
        Assert.Equal(letters[0].Letter.Body, letters[1].Letter.Body);
        Assert.Equal(@event, letters[2].Letter.Body);
        Assert.All(letters, l => Assert.Equal("q-order-ingress", l.Letter.Queue));
        Assert.All(letters, l => Assert.NotEmpty(l.Letter.Reason));
    }

    [Fact]
    public async Task Camel_case_orders_are_accepted_as_DaprClient_defaults_write_them()
    {
        const string camel =
            """{"orderId":5,"orderGuid":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","delivery":"standard","items":[""" +
            """{"orderItemId":1,"sku":"A","quantity":1}]}""";

        var response = await _app.Client.PostAsync("/q-order-ingress-input", BulkRequest.Json(camel));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var order = Assert.Single(_app.Handler.Orders).Order;
        Assert.Equal((5, Delivery.Standard, "A"), (order.OrderId, order.Delivery, Assert.Single(order.Items).SKU));
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();
}
