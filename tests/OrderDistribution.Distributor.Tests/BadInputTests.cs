using System.Net;
using System.Text.Json;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>Input that is not an order must end in a clear 4xx or a DROP, never a 500 the sidecar retries forever.</summary>
public sealed class BadInputTests : IDisposable
{
    private readonly DistributorFactory _app = new();

    [Theory]
    [InlineData("/q-order-ingress-bulk")]
    [InlineData("/q-order-ingress-single")]
    [InlineData("/q-order-ingress-input")]
    public async Task A_body_that_is_not_JSON_gets_a_400_problem(string route)
    {
        var response = await _app.CreateClient().PostAsync(route, BulkDelivery.Json("{not json"));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
    }

    [Theory]
    [InlineData("""{"entries":[]}""", "no entries")]
    [InlineData("""{"id":"x"}""", "'entries' array")]
    [InlineData("""[1,2]""", "'entries' array")]
    [InlineData("""{"entries":[{"event":{}}]}""", "no 'entryId'")]
    public async Task A_bulk_body_without_usable_entries_gets_a_400_that_says_why(string body, string reason)
    {
        var response = await _app.CreateClient().PostAsync("/q-order-ingress-bulk", BulkDelivery.Json(body));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains(reason, await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
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
    public async Task An_entry_that_is_not_a_valid_order_is_dropped_in_bulk_and_single_and_refused_by_the_binding(string @event)
    {
        var client = _app.CreateClient();
        var bulk = $$"""{"entries":[{"entryId":"e1","event":{{@event}},"contentType":"application/json"}]}""";
        var single = $$"""{"specversion":"1.0","id":"c1","type":"com.dapr.event.sent","data":{{@event}}}""";

        var bulkStatuses = await BulkDelivery.StatusesAsync(await client.PostAsync("/q-order-ingress-bulk", BulkDelivery.Json(bulk)));
        var singleResponse = await client.PostAsync("/q-order-ingress-single", BulkDelivery.Json(single));
        var bindingResponse = await client.PostAsync("/q-order-ingress-input", BulkDelivery.Json(@event));

        Assert.Equal("DROP", bulkStatuses["e1"]);
        Assert.Equal("DROP", JsonDocument.Parse(await singleResponse.Content.ReadAsStringAsync()).RootElement.GetProperty("status").GetString());
        Assert.Equal(HttpStatusCode.BadRequest, bindingResponse.StatusCode);
        Assert.Empty(_app.Sidecar.BulkPublishes);
        Assert.Empty(_app.Sidecar.Publishes);
        Assert.Empty(_app.Sidecar.BindingCalls);
    }

    [Fact]
    public async Task Camel_case_orders_are_accepted_as_DaprClient_defaults_write_them()
    {
        const string camel = """{"orderId":5,"orderGuid":"3f2504e0-4f89-11d3-9a0c-0305e82c3301","delivery":"standard","items":[{"orderItemId":1,"sku":"A","quantity":1}]}""";

        var response = await _app.CreateClient().PostAsync("/q-order-ingress-input", BulkDelivery.Json(camel));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("q-order-standard-output", Assert.Single(_app.Sidecar.BindingCalls).Binding);
    }

    public void Dispose() => _app.Dispose();
}
