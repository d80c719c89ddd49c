using System.Net;
using System.Text.Json;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>Requests a real sidecar sent, posted to the distributor's own routes: where its orders go and what a failed forward answers.</summary>
public sealed class WireContractTests : IDisposable
{
    private readonly DistributorFactory _app = new();

    public static string RouteFor(string recording) => recording switch
    {
        _ when recording.StartsWith("bulk-", StringComparison.Ordinal) => "/q-order-ingress-bulk",
        _ when recording.StartsWith("single-", StringComparison.Ordinal) => "/q-order-ingress-single",
        _ when recording.StartsWith("input-binding", StringComparison.Ordinal) => "/q-order-ingress-input",
        _ => throw new ArgumentException($"no route for recording {recording}"),
    };

    [Theory]
    [InlineData("bulk-rawpayload.request.json")]
    [InlineData("bulk-cloudevent.request.json")]
    public async Task A_bulk_request_is_routed_by_delivery_and_every_entry_answered_SUCCESS(string recording)
    {
        var wire = WireRecording.Load(recording);

        var response = await _app.CreateClient().SendAsync(wire.ToRequest(RouteFor(recording)));

        var statuses = await BulkRequest.StatusesAsync(response);
        Assert.Equal(EntryIds(wire), statuses.Keys.Order());
        Assert.All(statuses.Values, status => Assert.Equal("SUCCESS", status));
        Assert.Equal([1000001L], _app.Sidecar.BulkPublishedOrders("q-order-express").Select(o => o.OrderId));
        Assert.Equal([1000002L], _app.Sidecar.BulkPublishedOrders("q-order-standard").Select(o => o.OrderId));
    }

    [Fact]
    public async Task Published_orders_are_PascalCase_JSON_with_the_delivery_as_a_string()
    {
        await _app.CreateClient().SendAsync(
            WireRecording.Load("bulk-rawpayload.request.json").ToRequest("/q-order-ingress-bulk"));

        var payload = _app.Sidecar.BulkPublishes.Single(p => p.Topic == "q-order-express").Payloads.Single();
        using var json = JsonDocument.Parse(payload);
        Assert.Equal(
            ["OrderId", "OrderGuid", "Description", "FirstName", "LastName", "Delivery", "Items"],
            json.RootElement.EnumerateObject().Select(p => p.Name));
        Assert.Equal("Express", json.RootElement.GetProperty("Delivery").GetString());
        Assert.Equal("1234-5678-9012", json.RootElement.GetProperty("Items")[0].GetProperty("SKU").GetString());
    }

    [Fact]
    public async Task Only_the_entries_the_publish_reports_failed_are_answered_RETRY()
    {
        _app.Sidecar.FailOrder = order => order.OrderId == 1000001;

        var statuses = await BulkRequest.StatusesAsync(await _app.CreateClient().SendAsync(
            WireRecording.Load("bulk-rawpayload.request.json").ToRequest("/q-order-ingress-bulk")));

        Assert.Equal("RETRY", statuses["9c183a10-70a3-4bcc-a183-7ce81d68fc62"]);
        Assert.Equal("SUCCESS", statuses["d9196f5d-b57a-42da-aff4-7a22c4c43f11"]);
    }

    [Fact]
    public async Task When_the_sidecar_refuses_one_topic_only_that_topics_entries_are_answered_RETRY()
    {
        _app.Sidecar.Unreachable.Add("q-order-standard");

        var statuses = await BulkRequest.StatusesAsync(await _app.CreateClient().SendAsync(
            WireRecording.Load("bulk-cloudevent.request.json").ToRequest("/q-order-ingress-bulk")));

        Assert.Equal("RETRY", statuses["cbfd2131-61e0-4c30-8962-3972807bff80"]);
        Assert.Equal("SUCCESS", statuses["3213e6e0-d2bc-4489-b01c-f7d081061aa2"]);
    }

    [Fact]
    public async Task An_order_redelivered_after_RETRY_is_published_again()
    {
        var statuses = await BulkRequest.StatusesAsync(await _app.CreateClient().SendAsync(
            WireRecording.Load("bulk-rawpayload-redelivered-after-retry.request.json").ToRequest("/q-order-ingress-bulk")));

        Assert.Equal("SUCCESS", statuses["e2bd6748-f779-4ea1-b90d-cb5ad8e1ccd2"]);
        Assert.Equal([1000002L], _app.Sidecar.BulkPublishedOrders("q-order-standard").Select(o => o.OrderId));
    }

    [Theory]
    [InlineData("single-cloudevent.request.json")]
    [InlineData("single-rawpayload.request.json")]
    public async Task A_single_request_is_published_once_to_its_queue_and_answered_SUCCESS(string recording)
    {
        var response = await _app.CreateClient().SendAsync(WireRecording.Load(recording).ToRequest("/q-order-ingress-single"));

        Assert.Equal("SUCCESS", await StatusAsync(response));
        var (topic, payload) = Assert.Single(_app.Sidecar.Publishes);
        Assert.Equal("q-order-express", topic);
        Assert.Equal(1000001, OrderJson.Deserialize(payload).OrderId);
    }

    [Fact]
    public async Task A_single_request_whose_publish_fails_is_answered_RETRY()
    {
        _app.Sidecar.FailOrder = _ => true;

        var response = await _app.CreateClient().SendAsync(
            WireRecording.Load("single-cloudevent.request.json").ToRequest("/q-order-ingress-single"));

        Assert.Equal("RETRY", await StatusAsync(response));
    }

    [Fact]
    public async Task A_binding_request_is_forwarded_to_the_output_binding_of_its_delivery()
    {
        var response = await _app.CreateClient().SendAsync(
            WireRecording.Load("input-binding-storagequeue.request.json").ToRequest("/q-order-ingress-input"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (binding, payload) = Assert.Single(_app.Sidecar.BindingCalls);
        Assert.Equal("q-order-express-output", binding);
        Assert.Equal(1000001, OrderJson.Deserialize(payload).OrderId);
        Assert.Empty(_app.Sidecar.Publishes);
    }

    [Fact]
    public async Task A_binding_request_whose_forward_fails_gets_a_503_so_the_broker_delivers_it_again()
    {
        _app.Sidecar.Unreachable.Add("q-order-express-output");

        var response = await _app.CreateClient().SendAsync(
            WireRecording.Load("input-binding-storagequeue.request.json").ToRequest("/q-order-ingress-input"));

        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
    }

    public void Dispose() => _app.Dispose();

    private static IEnumerable<string> EntryIds(WireRecording wire) =>
        JsonDocument.Parse(wire.Body).RootElement.GetProperty("entries").EnumerateArray()
            .Select(e => e.GetProperty("entryId").GetString()!).Order();

    private static async Task<string> StatusAsync(HttpResponseMessage response)
    {
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("status").GetString()!;
    }
}
