using System.Collections.Concurrent;
using OrderDistribution.Dapr;
using OrderDistribution.Orders;

namespace OrderDistribution.Distributor.Tests;

/// <summary>Stands in for the sidecar: records every publish and binding call, and fails the orders it is told to.</summary>
public sealed class RecordingDaprPublisher : IDaprPublisher
{
    public ConcurrentQueue<(string Topic, IReadOnlyList<BulkPublishEntry> Entries)> BulkPublishes { get; } = new();

    public ConcurrentQueue<(string Topic, byte[] Payload)> Publishes { get; } = new();

    public ConcurrentQueue<(string Binding, byte[] Payload)> BindingCalls { get; } = new();

    /// <summary>Orders reported failed by the sidecar, one entry at a time.</summary>
    public Func<Order, bool> FailOrder { get; set; } = _ => false;

    /// <summary>Topics or bindings whose whole request the sidecar refuses.</summary>
    public HashSet<string> Unreachable { get; } = [];

    public Task<IReadOnlyList<FailedBulkEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<BulkPublishEntry> entries, int maxBulkPubBytes, CancellationToken cancellationToken)
    {
        ThrowIfUnreachable(topic);
        BulkPublishes.Enqueue((topic, entries));
        IReadOnlyList<FailedBulkEntry> failed = entries
            .Where(e => FailOrder(OrderJson.Deserialize(e.Payload)))
            .Select(e => new FailedBulkEntry(e.EntryId, "chosen to fail"))
            .ToList();
        return Task.FromResult(failed);
    }

    public Task PublishAsync(string pubSubName, string topic, byte[] payload, string contentType, CancellationToken cancellationToken)
    {
        ThrowIfUnreachable(topic);
        ThrowIfChosen(payload);
        Publishes.Enqueue((topic, payload));
        return Task.CompletedTask;
    }

    public Task InvokeOutputBindingAsync(string bindingName, byte[] payload, string contentType, CancellationToken cancellationToken)
    {
        ThrowIfUnreachable(bindingName);
        ThrowIfChosen(payload);
        BindingCalls.Enqueue((bindingName, payload));
        return Task.CompletedTask;
    }

    public IEnumerable<Order> BulkPublishedOrders(string topic) =>
        BulkPublishes.Where(p => p.Topic == topic).SelectMany(p => p.Entries).Select(e => OrderJson.Deserialize(e.Payload));

    private void ThrowIfUnreachable(string destination)
    {
        if (Unreachable.Contains(destination))
        {
            throw new HttpRequestException($"connection refused: {destination}");
        }
    }

    private void ThrowIfChosen(byte[] payload)
    {
        if (FailOrder(OrderJson.Deserialize(payload)))
        {
            throw new DaprPublishException("chosen to fail");
        }
    }
}
