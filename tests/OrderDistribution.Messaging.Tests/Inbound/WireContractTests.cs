using System.Net;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Inbound;

/// <summary>Every request a real sidecar sent, posted to the core's entry points, with a stub handler that takes every order.</summary>
public sealed class WireContractTests : IAsyncLifetime
{
    private EntryPointsHost _app = null!;

    public async ValueTask InitializeAsync() => _app = await EntryPointsHost.StartAsync();

    public static TheoryData<string> Recordings() => new(WireRecording.RequestNames());

    [Theory]
    [MemberData(nameof(Recordings))]
    public async Task Every_recorded_sidecar_request_is_accepted_with_a_200(string recording)
    {
        var response = await _app.Client.SendAsync(WireRecording.Load(recording).ToRequest(RouteFor(recording)));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task An_entry_that_is_not_an_order_is_dropped_and_the_others_go_through()
    {
        var wire = WireRecording.Load("bulk-rawpayload-3-entries.request.json");

        var statuses = await BulkRequest.StatusesAsync(
            await _app.Client.SendAsync(wire.ToRequest(EntryPointsHost.Routes.Bulk)));

        Assert.Equal("DROP", statuses["166e9504-1c2c-4696-9450-4db8d351b240"]);
        Assert.Equal("SUCCESS", statuses["df7088b4-e768-486f-a188-46591dd915b1"]);
        Assert.Equal("SUCCESS", statuses["93b3e96d-0817-4a6b-a624-0085a5198a63"]);
        Assert.Equal(
            ["93b3e96d-0817-4a6b-a624-0085a5198a63", "df7088b4-e768-486f-a188-46591dd915b1"],
            _app.Handler.Orders.Select(o => o.EntryId).Order());
    }

    public async ValueTask DisposeAsync() => await _app.DisposeAsync();

    private static string RouteFor(string recording) => recording switch
    {
        _ when recording.StartsWith("bulk-", StringComparison.Ordinal) => EntryPointsHost.Routes.Bulk,
        _ when recording.StartsWith("single-", StringComparison.Ordinal) => EntryPointsHost.Routes.Single,
        _ when recording.StartsWith("input-binding", StringComparison.Ordinal) => EntryPointsHost.Routes.Binding,
        _ => throw new ArgumentException($"no route for recording {recording}"),
    };
}
