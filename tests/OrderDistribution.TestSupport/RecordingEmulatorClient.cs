using System.Collections.Concurrent;
using Dapr;
using Dapr.Client;
using Grpc.Core;
using NSubstitute;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;

namespace OrderDistribution.TestSupport;

/// <summary>
/// The emulator's recording and fault injection without a server, for tests of the distributor's handling alone: a
/// <see cref="DaprClient"/> and <see cref="IOutputBindings"/> (NSubstitute, so it stays in the tests) that record every
/// publish and binding call, fail the orders they are told to the way the SDK reports it (named entries of a bulk
/// publish; a DaprException for one publish or binding call), and refuse whole destinations as an unreachable sidecar
/// would. Over HTTP, the same modes are <see cref="EmulatedSidecar"/>'s.
/// </summary>
public sealed class RecordingEmulatorClient
{
    public RecordingEmulatorClient()
    {
        Client = Substitute.For<DaprClient>();
        Client.BulkPublishEventAsync<byte[]>(default!, default!, default!, default, default).ReturnsForAnyArgs(call =>
            BulkPublish(call.ArgAt<string>(1), call.ArgAt<IReadOnlyList<byte[]>>(2), call.ArgAt<Dictionary<string, string>?>(3)));
        Client.PublishByteEventAsync(default!, default!, default, default!, default, default).ReturnsForAnyArgs(call =>
        {
            Take(call.ArgAt<string>(1), call.ArgAt<ReadOnlyMemory<byte>>(2).ToArray(), Publishes);
            return Task.CompletedTask;
        });
        Bindings = Substitute.For<IOutputBindings>();
        Bindings.CreateAsync(default!, default, default).ReturnsForAnyArgs(call =>
        {
            Take(call.ArgAt<string>(0), call.ArgAt<ReadOnlyMemory<byte>>(1).ToArray(), BindingCalls);
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

    /// <summary>Orders reported failed by the sidecar, one entry at a time.</summary>
    public Func<Order, bool> FailOrder { get; set; } = _ => false;

    /// <summary>Topics or bindings whose whole request the sidecar refuses.</summary>
    public HashSet<string> Unreachable { get; } = [];

    public IEnumerable<Order> BulkPublishedOrders(string topic) =>
        BulkPublishes.Where(p => p.Topic == topic).SelectMany(p => p.Payloads).Select(payload => OrderJson.Deserialize(payload));

    private Task<BulkPublishResponse<byte[]>> BulkPublish(string topic, IReadOnlyList<byte[]> payloads, Dictionary<string, string>? metadata)
    {
        ThrowIfUnreachable(topic);
        BulkPublishes.Enqueue(new RecordedBulkPublish(topic, metadata ?? [], payloads));
        var failed = payloads
            .Select((payload, i) => (payload, i))
            .Where(p => FailOrder(OrderJson.Deserialize(p.payload)))
            .Select(p => new BulkPublishResponseFailedEntry<byte[]>(
                new BulkPublishEntry<byte[]>(p.i.ToString(System.Globalization.CultureInfo.InvariantCulture), p.payload, "application/octet-stream"),
                "chosen to fail"))
            .ToList();
        return Task.FromResult(new BulkPublishResponse<byte[]>(failed));
    }

    private void Take(string destination, byte[] payload, ConcurrentQueue<(string, byte[])> record)
    {
        ThrowIfUnreachable(destination);
        if (FailOrder(OrderJson.Deserialize(payload)))
        {
            throw new DaprException("Publish operation failed", new RpcException(new Status(StatusCode.Internal, "chosen to fail")));
        }

        record.Enqueue((destination, payload));
    }

    private void ThrowIfUnreachable(string destination)
    {
        if (Unreachable.Contains(destination))
        {
            throw new DaprException($"{destination}: the Dapr endpoint is not reachable", new RpcException(new Status(StatusCode.Unavailable, "connection refused")));
        }
    }
}
