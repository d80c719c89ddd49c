using Dapr;
using Dapr.Client;
using Grpc.Core;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using NSubstitute;
using NSubstitute.ExceptionExtensions;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.TestSupport;
using GrpcBulkPublishRequest = Dapr.Client.Autogen.Grpc.v1.BulkPublishRequest;
using GrpcBulkPublishResponse = Dapr.Client.Autogen.Grpc.v1.BulkPublishResponse;
using GrpcDapr = Dapr.Client.Autogen.Grpc.v1.Dapr;
using GrpcFailedEntry = Dapr.Client.Autogen.Grpc.v1.BulkPublishResponseFailedEntry;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// What the apps hand Dapr's SDK when they publish, and how they read its answers: raw payloads, the byte budget
/// in the metadata, failures by entry, and the alpha bulk publish of sidecars older than runtime 1.17.
/// </summary>
public sealed class SidecarPublishingTests
{
    private static readonly Dictionary<string,
        string> Metadata = new() { ["rawPayload"] = "true", ["maxBulkPubBytes"] = "131072" };

    private readonly DaprClient _dapr = Substitute.For<DaprClient>();
    private readonly AlphaBulkPublishClient _alpha = Substitute.For<AlphaBulkPublishClient>(
        Substitute.For<GrpcDapr.DaprClient>(), null);

    [Fact]
    public async Task A_bulk_publish_hands_the_SDK_each_order_as_its_own_PascalCase_bytes_with_the_metadata()
    {
        var order = TestOrders.Make(7, Delivery.Express);
        var published = new List<byte[]>();
        Dictionary<string, string>? sentMetadata = null;
        _dapr.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default).ReturnsForAnyArgs(call =>
        {
            published.AddRange(call.ArgAt<IReadOnlyList<byte[]>>(2));
            sentMetadata = call.ArgAt<Dictionary<string, string>?>(3);
            return Task.FromResult(new BulkPublishResponse<byte[]>([]));
        });

        var failed = await Publisher()
            .BulkPublishAsync("order-pubsub", "q-order-express",
            [new OutboundMessage("e7", OrderJson.Serialize(order))], Metadata, default);

        Assert.Empty(failed);
        Assert.Equal(OrderJson.Serialize(order), Assert.Single(published));
        Assert.Contains("\"OrderId\":7", System.Text.Encoding.UTF8.GetString(published[0]), StringComparison.Ordinal);
        Assert.Equal(Metadata, sentMetadata);
    }

    [Fact]
    public async Task The_entries_the_SDK_reports_failed_are_named_by_the_requests_own_ids()
    {
        var messages = TestOrders.Many(3).Select(o => new OutboundMessage($"entry-{o.OrderId}", OrderJson.Serialize(o)))
            .ToList();
        _dapr.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default).ReturnsForAnyArgs(call =>
        {
            var events = call.ArgAt<IReadOnlyList<byte[]>>(2);
            return Task.FromResult(new BulkPublishResponse<byte[]>(
                [new BulkPublishResponseFailedEntry<byte[]>(
                    new BulkPublishEntry<byte[]>("1", events[1], "application/octet-stream"), "busy")]));
        });

        var failed = await Publisher().BulkPublishAsync("order-pubsub", "q-order-express", messages, Metadata, default);

        Assert.Equal(new FailedEntry("entry-2", "busy"), Assert.Single(failed));
    }

    /// <summary>
    /// Dapr.Client 1.19 falls back to the alpha method itself on Unimplemented only; runtimes before 1.17 answer
    /// Unknown.
    /// </summary>
    [Fact]
    public async Task A_sidecar_before_1_17_answering_the_stable_bulk_publish_failed_to_proxy_gets_the_alpha_one_after()
    {
        _dapr.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default).ThrowsAsyncForAnyArgs(
            new DaprException("Bulk Publish operation failed", new RpcException(new Status(
                StatusCode.Unknown, "failed to proxy request: required metadata dapr-app-id not found"))));
        _alpha.PublishAsync(default!, default!, default!, default!, default)
            .ReturnsForAnyArgs(Task.FromResult<IReadOnlyList<FailedEntry>>([]));
        var publisher = Publisher();
        var messages = new List<OutboundMessage> { new("e1",
            OrderJson.Serialize(TestOrders.Make(1, Delivery.Express))) };

        Assert.Empty(await publisher.BulkPublishAsync("order-pubsub", "q-order-express", messages, Metadata, default));
        Assert.Empty(await publisher.BulkPublishAsync("order-pubsub", "q-order-express", messages, Metadata, default));

        await _dapr.ReceivedWithAnyArgs(1)
            .BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default);
        await _alpha.Received(2)
            .PublishAsync("order-pubsub", "q-order-express", messages, Metadata, Arg.Any<CancellationToken>());
    }

    [Theory]
    [InlineData(StatusCode.Unavailable, "connection refused")]
    [InlineData(StatusCode.Unknown, "error when publishing to topic q-order-express: redis: connection pool timeout")]
    public async Task Any_other_failure_of_the_stable_bulk_publish_fails_the_call_without_trying_the_alpha_one(
        StatusCode status, string detail)
    {
        _dapr.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default).ThrowsAsyncForAnyArgs(
            new DaprException("Bulk Publish operation failed", new RpcException(new Status(status, detail))));

        await Assert.ThrowsAsync<DaprException>(() => Publisher().BulkPublishAsync(
            "order-pubsub", "q-order-express", [new OutboundMessage("e1", [1])], Metadata, default));

        await _alpha.DidNotReceiveWithAnyArgs().PublishAsync(default!, default!, default!, default!, default);
    }

    [Fact]
    public async Task The_alpha_bulk_publish_sends_ids_bytes_metadata_and_api_token_and_reports_only_entries_it_sent()
    {
        var grpc = Substitute.For<GrpcDapr.DaprClient>();
        GrpcBulkPublishRequest? sent = null;
        global::Grpc.Core.Metadata? headers = null;
        var answer = new GrpcBulkPublishResponse();
        answer.FailedEntries.Add(new GrpcFailedEntry { EntryId = "e2", Error = "busy" });
        answer.FailedEntries.Add(new GrpcFailedEntry { EntryId = "not-sent", Error = "?" });
#pragma warning disable CS0612 // the alpha method is what older sidecars offer
        grpc.BulkPublishEventAlpha1Async(default!, default, default, default).ReturnsForAnyArgs(call =>
        {
            sent = call.ArgAt<GrpcBulkPublishRequest>(0);
            headers = call.ArgAt<global::Grpc.Core.Metadata>(1);
            return Unary(answer);
        });
#pragma warning restore CS0612
        var alpha = new AlphaBulkPublishClient(grpc, "sidecar-secret");

        var failed = await alpha.PublishAsync("order-pubsub", "q-order-ingress",
            [new OutboundMessage("e1", [1, 2]), new OutboundMessage("e2", [3])],
            new Dictionary<string, string> { ["ScheduledEnqueueTimeUtc"] = "2026-11-21T12:00:00Z" }, default);

        Assert.Equal(new FailedEntry("e2", "busy"), Assert.Single(failed));
        Assert.Equal(("order-pubsub", "q-order-ingress"), (sent!.PubsubName, sent.Topic));
        Assert.Equal("2026-11-21T12:00:00Z", sent.Metadata["ScheduledEnqueueTimeUtc"]);
        Assert.Equal(["e1", "e2"], sent.Entries.Select(e => e.EntryId));
        Assert.All(sent.Entries, e => Assert.Equal("application/octet-stream", e.ContentType));
        Assert.Equal([1, 2], sent.Entries[0].Event.ToByteArray());
        Assert.All(sent.Entries, e => Assert.Equal("2026-11-21T12:00:00Z", e.Metadata["ScheduledEnqueueTimeUtc"]));
        Assert.Equal("sidecar-secret", headers!.GetValue("dapr-api-token"));
    }

    [Fact]
    public async Task A_refused_alpha_bulk_publish_fails_as_a_whole()
    {
        var grpc = Substitute.For<GrpcDapr.DaprClient>();
#pragma warning disable CS0612 // the alpha method is what older sidecars offer
        grpc.BulkPublishEventAlpha1Async(default!, default, default, default)
            .ThrowsForAnyArgs(new RpcException(new Status(StatusCode.Internal, "redis refused")));
#pragma warning restore CS0612

        var error = await Assert.ThrowsAsync<SidecarCallException>(() =>
            new AlphaBulkPublishClient(grpc, null).PublishAsync(
            "order-pubsub", "q-order-express", [new OutboundMessage("e1", [1])], Metadata, default));
        Assert.Contains("redis refused", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("DAPR_GRPC_PORT", "grpc")]
    [InlineData("DAPR_GRPC_ENDPOINT", "not a url")]
    [InlineData("DAPR_HTTP_PORT", "99999999999")]
    public void A_sidecar_address_that_is_no_address_stops_the_app_naming_the_variable(string variable, string value)
    {
        var error = Assert.Throws<InvalidOperationException>(() => SidecarOf((variable, value)));

        Assert.Contains(variable, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_sidecar_address_comes_from_the_ports_dapr_run_sets()
    {
        var sidecar = SidecarOf(("DAPR_GRPC_PORT", "50011"), ("DAPR_HTTP_PORT", "3501"));

        Assert.Equal(50011, sidecar.GrpcEndpoint.Port);
        Assert.Equal(3501, sidecar.HttpEndpoint.Port);
    }

    /// <summary>The sidecar's options as the apps' publishing reads them from these settings.</summary>
    private static SidecarOptions SidecarOf(params (string Key, string Value)[] settings)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, (string?)s.Value))).Build();
        using var provider = new ServiceCollection().AddSingleton<IConfiguration>(configuration).AddSidecarOutbound()
            .BuildServiceProvider();
        return provider.GetRequiredService<SidecarOptions>();
    }

    private SidecarOutboundClient Publisher() =>
        new(_dapr, _alpha, Substitute.For<IOutputBindings>(), NullLogger<SidecarOutboundClient>.Instance);

    private static AsyncUnaryCall<T> Unary<T>(T response) =>
        new(Task.FromResult(response), Task.FromResult(new global::Grpc.Core.Metadata()), () => Status.DefaultSuccess,
            () => [], () => { });
}
