using System.Collections.Concurrent;
using Microsoft.Extensions.DependencyInjection;
using OrderDistribution.Contracts;
using OrderDistribution.Messaging.Outbound;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Messaging.Tests.Outbound;

/// <summary>
/// The bulk order publisher against the sidecar emulator in its recording mode, and what it reported of each entry:
/// published, failed (with the reason) or dropped (with the reason, and never twice).
/// </summary>
public abstract class BulkOrderPublishing : IAsyncLifetime
{
    protected const string Topic = "q-order-express";

    protected LogRecorder Logs { get; } = new();

    protected ConcurrentDictionary<string, string> Dropped { get; } = new();

    protected ConcurrentDictionary<string, string> Failed { get; } = new();

    protected ConcurrentBag<string> Published { get; } = [];

    protected EmulatedSidecar Sidecar { get; private set; } = null!;

    public async ValueTask InitializeAsync() => Sidecar = await EmulatedSidecar.StartRecordingAsync();

    public async ValueTask DisposeAsync()
    {
        await Sidecar.DisposeAsync();
        GC.SuppressFinalize(this);
    }

    protected ServiceProvider Publishing(params (string Key, string Value)[] settings) =>
        EmulatorDaprClient.Publishing(Sidecar.Address, Logs, settings);

    protected Task<IReadOnlySet<string>> PublishAsync(
        ServiceProvider publishing, IReadOnlyList<OutboundMessage> messages,
            CancellationToken cancellationToken = default) =>
        publishing.GetRequiredService<BulkOrderPublisher>().PublishAsync(
            Topic, messages, cancellationToken,
            published: Published.Add,
            failed: (id, reason) => Failed[id] = reason,
            dropped: (id, reason) => Assert.True(Dropped.TryAdd(id, reason), $"entry {id} dropped twice"));

    protected static List<OutboundMessage> Messages(IEnumerable<Order> orders) => orders.Select(Message).ToList();

    protected static OutboundMessage Message(Order order) =>
        new(order.OrderId.ToString(System.Globalization.CultureInfo.InvariantCulture), OrderJson.Serialize(order));

    protected static string EntryIdOfOrder(SidecarRequest request, long orderId) =>
        request.Json.EnumerateArray()
            .First(e => e.GetProperty("event").ToString().Contains($"\"OrderId\":{orderId}", StringComparison.Ordinal))
            .GetProperty("entryId").GetString()!;
}
