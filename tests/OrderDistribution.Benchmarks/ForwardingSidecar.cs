using System.Text.Json;
using OrderDistribution.Dapr;
using OrderDistribution.TestSupport;

namespace OrderDistribution.Benchmarks;

/// <summary>
/// Stands in for sidecars and broker at no cost of their own: a bulk publish to a topic is delivered at
/// once to that topic's receiver as bulk deliveries of base64 entries, as Service Bus and Redis deliver
/// raw payloads. Entries the receiver answers RETRY are reported failed.
/// </summary>
public sealed class ForwardingSidecar(IReadOnlyDictionary<string, HttpClient> receivers, int maxMessagesCount) : IDaprPublisher
{
    public async Task<IReadOnlyList<FailedBulkEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<BulkPublishEntry> entries, int maxBulkPubBytes, CancellationToken cancellationToken)
    {
        var failed = new List<FailedBulkEntry>();
        foreach (var batch in entries.Chunk(maxMessagesCount))
        {
            var body = JsonSerializer.Serialize(new
            {
                entries = batch.Select(e => new
                {
                    entryId = e.EntryId,
                    @event = Convert.ToBase64String(e.Payload),
                    metadata = (object?)null,
                    contentType = "application/octet-stream",
                }),
                topic,
                pubsubname = pubSubName,
                type = "com.dapr.event.sent.bulk",
            });
            var response = await receivers[topic].PostAsync($"/{topic}-bulk", BulkDelivery.Json(body), cancellationToken);
            response.EnsureSuccessStatusCode();
            failed.AddRange((await BulkDelivery.StatusesAsync(response))
                .Where(s => s.Value != "SUCCESS")
                .Select(s => new FailedBulkEntry(s.Key, s.Value)));
        }

        return failed;
    }

    public Task PublishAsync(string pubSubName, string topic, byte[] payload, string contentType, CancellationToken cancellationToken) =>
        throw new NotSupportedException("The benchmark runs the bulk model only.");

    public Task InvokeOutputBindingAsync(string bindingName, byte[] payload, string contentType, CancellationToken cancellationToken) =>
        throw new NotSupportedException("The benchmark runs the bulk model only.");
}

/// <summary>Takes every publish at no cost: what is left is the distributor's own work.</summary>
public sealed class NullSidecar : IDaprPublisher
{
    public Task<IReadOnlyList<FailedBulkEntry>> BulkPublishAsync(
        string pubSubName, string topic, IReadOnlyList<BulkPublishEntry> entries, int maxBulkPubBytes, CancellationToken cancellationToken) =>
        Task.FromResult<IReadOnlyList<FailedBulkEntry>>([]);

    public Task PublishAsync(string pubSubName, string topic, byte[] payload, string contentType, CancellationToken cancellationToken) => Task.CompletedTask;

    public Task InvokeOutputBindingAsync(string bindingName, byte[] payload, string contentType, CancellationToken cancellationToken) => Task.CompletedTask;
}
