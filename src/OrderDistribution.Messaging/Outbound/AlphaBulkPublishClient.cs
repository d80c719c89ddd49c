using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;
using BulkPublishRequest = Dapr.Client.Autogen.Grpc.v1.BulkPublishRequest;
using BulkPublishRequestEntry = Dapr.Client.Autogen.Grpc.v1.BulkPublishRequestEntry;
using GrpcDapr = Dapr.Client.Autogen.Grpc.v1.Dapr;

namespace OrderDistribution.Messaging.Outbound;

/// <summary>
/// Bulk publish through the sidecar's alpha gRPC method, <c>BulkPublishEventAlpha1</c>, with the SDK's generated
/// client: the only bulk publish of sidecars older than runtime 1.17. Entries carry their own ids and the request's
/// metadata, as the SDK's stable call sends them.
/// </summary>
public class AlphaBulkPublishClient(GrpcDapr.DaprClient grpc, string? apiToken)
{
    public static AlphaBulkPublishClient Create(SidecarOptions sidecar) =>
        new(new GrpcDapr.DaprClient(GrpcChannel.ForAddress(sidecar.GrpcEndpoint, SidecarOptions.ChannelOptions())),
            sidecar.ApiToken);

    /// <returns>The entries the sidecar names as failed, among those sent; empty when it confirmed every
    /// entry.</returns>
    /// <exception cref="SidecarCallException">The sidecar did not answer with a result: every entry may have
    /// failed.</exception>
    public virtual async Task<IReadOnlyList<FailedEntry>> PublishAsync(
        string pubSubName, string topic, IReadOnlyList<OutboundMessage> messages,
            IReadOnlyDictionary<string, string> metadata,
        CancellationToken cancellationToken)
    {
        var request = new BulkPublishRequest { PubsubName = pubSubName, Topic = topic };
        AddAll(request.Metadata, metadata);
        foreach (var message in messages)
        {
            var entry = new BulkPublishRequestEntry
            {
                EntryId = message.EntryId,
                Event = ByteString.CopyFrom(message.Payload),
                ContentType = "application/octet-stream",
            };
            AddAll(entry.Metadata, metadata);
            request.Entries.Add(entry);
        }

        var headers = apiToken is null ? null : new Metadata { { "dapr-api-token", apiToken } };
        try
        {
#pragma warning disable CS0612 // Deprecated where the stable method exists; the only bulk publish of older sidecars.
            var response =
                await grpc.BulkPublishEventAlpha1Async(request, headers, cancellationToken: cancellationToken);
#pragma warning restore CS0612
            var sent = messages.Select(m => m.EntryId).ToHashSet(StringComparer.Ordinal);
            return response.FailedEntries
                .Where(f => sent.Contains(f.EntryId))
                .DistinctBy(f => f.EntryId)
                .Select(f => new FailedEntry(f.EntryId, f.Error))
                .ToList();
        }
        catch (RpcException e)
        {
            throw new SidecarCallException($"The sidecar did not confirm the bulk publish to {topic}: " +
                $"{e.Status.StatusCode} {e.Status.Detail}", e);
        }
    }

    private static void AddAll(Google.Protobuf.Collections.MapField<string, string> map,
        IReadOnlyDictionary<string, string> metadata)
    {
        foreach (var (key, value) in metadata)
        {
            map[key] = value;
        }
    }
}
