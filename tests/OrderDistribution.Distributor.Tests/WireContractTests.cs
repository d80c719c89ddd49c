using System.Net;
using System.Text.Json;
using OrderDistribution.Contracts;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Distributor.Tests;

/// <summary>
/// Requests a real sidecar sent, posted to the distributor's own routes: where its orders go. What a failed forward
/// answers is the messaging core's (Messaging.Tests, Inbound/WireContractTests).
/// </summary>
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

    [Theory]
    [InlineData("single-cloudevent.request.json")]
    [InlineData("single-rawpayload.request.json")]
    public async Task A_single_request_is_published_once_to_its_queue_and_answered_SUCCESS(string recording)
    {
        var response = await _app.CreateClient()
            .SendAsync(WireRecording.Load(recording).ToRequest("/q-order-ingress-single"));

        Assert.Equal("SUCCESS", await StatusAsync(response));
        var (topic, payload) = Assert.Single(_app.Sidecar.Publishes);
        Assert.Equal("q-order-express", topic);
        Assert.Equal(1000001, OrderJson.Deserialize(payload).OrderId);
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

    public void Dispose() => _app.Dispose();

    private static IEnumerable<string> EntryIds(WireRecording wire) =>
        JsonDocument.Parse(wire.Body).RootElement.GetProperty("entries").EnumerateArray()
            .Select(e => e.GetProperty("entryId").GetString()!).Order();

    private static async Task<string> StatusAsync(HttpResponseMessage response)
    {
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return await BulkRequest.StatusAsync(response);
    }
}
