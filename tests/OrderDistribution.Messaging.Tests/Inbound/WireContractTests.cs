using System.Net;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>
/// Every request a real sidecar sent, posted to the core's entry points: with a stub handler that takes every order,
/// and with one that sends them on to the sidecar emulator in its recording mode (what the orders look like on their
/// way out, and what a failed forward answers).
/// </summary>
public sealed class WireContractTests : IAsyncLifetime
{
    private EntryPointsHost _app = null!;
    private EmulatedSidecar _sidecar = null!;

    public async ValueTask InitializeAsync()
    {
        _app = await EntryPointsHost.StartAsync();
        _sidecar = await EmulatedSidecar.StartRecordingAsync();
    }

    public static TheoryData<string> Recordings() => new(WireRecording.RequestNames());

    [Theory]
    [MemberData(nameof(Recordings))]
    public async Task Every_recorded_sidecar_request_is_accepted_with_a_200(string recording)
    {
        var response = await _app.Client.SendAsync(WireRecording.Load(recording).ToRequest(RouteFor(recording)));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task An_entry_that_is_not_an_order_is_kept_on_the_dead_letter_queue_and_the_others_go_through()
    {
        var wire = WireRecording.Load("bulk-rawpayload-3-entries.request.json");

        var statuses = await BulkRequest.StatusesAsync(
            await _app.Client.SendAsync(wire.ToRequest(EntryPointsHost.Routes.Bulk)));

        Assert.Equal("SUCCESS", statuses["166e9504-1c2c-4696-9450-4db8d351b240"]);
        Assert.Equal("166e9504-1c2c-4696-9450-4db8d351b240", Assert.Single(_app.Kept.Letters).Letter.EntryId);
        Assert.Equal("SUCCESS", statuses["df7088b4-e768-486f-a188-46591dd915b1"]);
        Assert.Equal("SUCCESS", statuses["93b3e96d-0817-4a6b-a624-0085a5198a63"]);
        Assert.Equal(
            ["93b3e96d-0817-4a6b-a624-0085a5198a63", "df7088b4-e768-486f-a188-46591dd915b1"],
            _app.Handler.Orders.Select(o => o.EntryId).Order());
    }

    [Fact]
    public async Task Published_orders_are_PascalCase_JSON_with_the_delivery_as_a_string()
    {
        await using var app = await EntryPointsHost.ForwardingAsync(_sidecar.Address);

        await app.Client.SendAsync(
            WireRecording.Load("bulk-rawpayload.request.json").ToRequest(EntryPointsHost.Routes.Bulk));

        var payload = Assert.Single(_sidecar.BulkPublishes("q-order-express").SelectMany(r => r.Json.EnumerateArray()))
            .GetProperty("event");
        Assert.Equal(
            ["OrderId", "OrderGuid", "Description", "FirstName", "LastName", "Delivery", "Items"],
            payload.EnumerateObject().Select(p => p.Name));
        Assert.Equal("Express", payload.GetProperty("Delivery").GetString());
        Assert.Equal("1234-5678-9012", payload.GetProperty("Items")[0].GetProperty("SKU").GetString());
    }

    [Fact]
    public async Task Only_the_entries_the_publish_reports_failed_are_answered_RETRY()
    {
        _sidecar.FailEntry = order => order.GetProperty("OrderId").GetInt64() == 1000001;
        await using var app = await EntryPointsHost.ForwardingAsync(_sidecar.Address);

        var statuses = await BulkRequest.StatusesAsync(await app.Client.SendAsync(
            WireRecording.Load("bulk-rawpayload.request.json").ToRequest(EntryPointsHost.Routes.Bulk)));

        Assert.Equal("RETRY", statuses["9c183a10-70a3-4bcc-a183-7ce81d68fc62"]);
        Assert.Equal("SUCCESS", statuses["d9196f5d-b57a-42da-aff4-7a22c4c43f11"]);
    }

    [Fact]
    public async Task When_the_sidecar_refuses_one_queue_only_that_queues_entries_are_answered_RETRY()
    {
        _sidecar.BulkAnswer = request => request.Path.EndsWith("/q-order-standard", StringComparison.Ordinal)
            ? (503, "<html>Service Unavailable</html>")
            : (204, "");
        await using var app = await EntryPointsHost.ForwardingAsync(_sidecar.Address);

        var statuses = await BulkRequest.StatusesAsync(await app.Client.SendAsync(
            WireRecording.Load("bulk-cloudevent.request.json").ToRequest(EntryPointsHost.Routes.Bulk)));

        Assert.Equal("RETRY", statuses["cbfd2131-61e0-4c30-8962-3972807bff80"]);
        Assert.Equal("SUCCESS", statuses["3213e6e0-d2bc-4489-b01c-f7d081061aa2"]);
    }

    [Fact]
    public async Task An_order_redelivered_after_RETRY_is_published_again()
    {
        await using var app = await EntryPointsHost.ForwardingAsync(_sidecar.Address);

        var statuses = await BulkRequest.StatusesAsync(await app.Client.SendAsync(
            WireRecording.Load("bulk-rawpayload-redelivered-after-retry.request.json")
                .ToRequest(EntryPointsHost.Routes.Bulk)));

        Assert.Equal("SUCCESS", statuses["e2bd6748-f779-4ea1-b90d-cb5ad8e1ccd2"]);
        Assert.Equal(
            [1000002L],
            _sidecar.BulkPublishes("q-order-standard").SelectMany(r => r.Json.EnumerateArray())
                .Select(e => e.GetProperty("event").GetProperty("OrderId").GetInt64()));
    }

    [Fact]
    public async Task A_single_request_whose_publish_fails_is_answered_RETRY()
    {
        _sidecar.PublishAnswer = _ => (500, "chosen to fail");
        await using var app = await EntryPointsHost.ForwardingAsync(_sidecar.Address);

        var response = await app.Client.SendAsync(
            WireRecording.Load("single-cloudevent.request.json").ToRequest(EntryPointsHost.Routes.Single));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("RETRY", await BulkRequest.StatusAsync(response));
    }

    [Fact]
    public async Task A_binding_request_whose_forward_fails_gets_a_503_so_the_broker_delivers_it_again()
    {
        _sidecar.BindingAnswer = _ =>
            (500, """{"errorCode":"ERR_INVOKE_OUTPUT_BINDING","message":"error invoking output binding """ +
            """q-order-express-output: channel/connection is not open"}""");
        await using var app = await EntryPointsHost.ForwardingAsync(_sidecar.Address);

        var response = await app.Client.SendAsync(
            WireRecording.Load("input-binding-storagequeue.request.json").ToRequest(EntryPointsHost.Routes.Binding));

        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
    }

    public async ValueTask DisposeAsync()
    {
        await _app.DisposeAsync();
        await _sidecar.DisposeAsync();
    }

    private static string RouteFor(string recording) => recording switch
    {
        _ when recording.StartsWith("bulk-", StringComparison.Ordinal) => EntryPointsHost.Routes.Bulk,
        _ when recording.StartsWith("single-", StringComparison.Ordinal) => EntryPointsHost.Routes.Single,
        _ when recording.StartsWith("input-binding", StringComparison.Ordinal) => EntryPointsHost.Routes.Binding,
        _ => throw new ArgumentException($"no route for recording {recording}"),
    };
}
