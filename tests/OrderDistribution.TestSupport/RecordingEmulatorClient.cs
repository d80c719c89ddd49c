using System.Collections.Concurrent;
using Dapr.Client;
using NSubstitute;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.TestSupport;

/// <summary>
/// The emulator's recording without a server, for tests of the distributor's handling alone: a <see cref="DaprClient"/>
/// and <see cref="IOutputBindings"/> (NSubstitute, so it stays in the tests) that record every publish and binding
/// call. Over HTTP, the same mode and fault injection are <see cref="EmulatedSidecar"/>'s.
/// </summary>
public sealed class RecordingEmulatorClient
{
    public RecordingEmulatorClient()
    {
        Client = Substitute.For<DaprClient>();
        Client.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default).ReturnsForAnyArgs(call =>
            BulkPublish(call.ArgAt<string>(1), call.ArgAt<IReadOnlyList<byte[]>>(2), call.ArgAt<Dictionary<string,
                string>?>(3)));
        Client.PublishByteEventAsync(default!, default!, default, default!, default, default).ReturnsForAnyArgs(call =>
        {
            Publishes.Enqueue((call.ArgAt<string>(1), call.ArgAt<ReadOnlyMemory<byte>>(2).ToArray()));
            return Task.CompletedTask;
        });
        Bindings = Substitute.For<IOutputBindings>();
        Bindings.CreateAsync(default!, default, default).ReturnsForAnyArgs(call =>
        {
            BindingCalls.Enqueue((call.ArgAt<string>(0), call.ArgAt<ReadOnlyMemory<byte>>(1).ToArray()));
            return Task.CompletedTask;
        });
        Client.CheckOutboundHealthAsync(default).ReturnsForAnyArgs(true);
    }

    public DaprClient Client { get; }

    /// <summary>The output bindings (through the sidecar's HTTP API in the apps), recorded the same way.</summary>
    public IOutputBindings Bindings { get; }

    public ConcurrentQueue<RecordedBulkPublish> BulkPublishes { get; } = new();

    public ConcurrentQueue<(string Topic, byte[] Payload)> Publishes { get; } = new();

    public ConcurrentQueue<(string Binding, byte[] Payload)> BindingCalls { get; } = new();

    public IEnumerable<Order> BulkPublishedOrders(string topic) =>
        BulkPublishes.Where(p => p.Topic == topic).SelectMany(p => p.Payloads)
            .Select(payload => OrderJson.Deserialize(payload));

    private Task<BulkPublishResponse<byte[]>> BulkPublish(string topic, IReadOnlyList<byte[]> payloads,
        Dictionary<string, string>? metadata)
    {
        BulkPublishes.Enqueue(new RecordedBulkPublish(topic, metadata ?? [], payloads));
        return Task.FromResult(new BulkPublishResponse<byte[]>([]));
    }
}
