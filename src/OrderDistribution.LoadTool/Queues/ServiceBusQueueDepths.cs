using System.Text.Json;
using Azure;
using Azure.Core;
using Azure.Identity;
using Azure.ResourceManager;

namespace OrderDistribution.LoadTool.Queues;

/// <summary>
/// The orders waiting on each of the trio's Service Bus queues in Azure: each queue's active messages (not yet
/// delivered, or delivered and not yet settled) as Azure Resource Manager reports them, the count
/// <c>scripts/azure-burst.sh</c> drains by. Resource Manager answers anyone with Reader on the namespace, where the
/// queues' own administration API would need Service Bus Data Owner. One read per queue and tick.
/// </summary>
public sealed class ServiceBusQueueDepths(ArmClient arm, ResourceIdentifier serviceBusNamespace,
    IReadOnlyList<string> queues) : IQueueDepths
{
    /// <summary>
    /// The queues' API version, the one <c>infra/modules/servicebus.bicep</c> deploys them with: a known shape, and
    /// no call to look a version up.
    /// </summary>
    public const string ApiVersion = "2026-01-01";

    public static readonly ResourceType NamespaceType = new("Microsoft.ServiceBus/namespaces");

    private static readonly ResourceType QueueType = new("Microsoft.ServiceBus/namespaces/queues");

    /// <summary>Reads as the signed-in user (<see cref="DefaultAzureCredential"/>: az login).</summary>
    /// <param name="options">Where Resource Manager is and how it is reached (tests answer it in process).</param>
    public static ServiceBusQueueDepths Connect(
        ResourceIdentifier serviceBusNamespace, IReadOnlyList<string> queues, TokenCredential? credential = null,
        ArmClientOptions? options = null)
    {
        options ??= new ArmClientOptions();
        options.SetApiVersion(QueueType, ApiVersion);
        // A reading that fails is left out and the next tick reads again: no retry, and no wait past a few ticks.
        options.Retry.MaxRetries = 0;
        options.Retry.NetworkTimeout = TimeSpan.FromSeconds(5);
        var arm = new ArmClient(
            credential ?? new DefaultAzureCredential(), serviceBusNamespace.SubscriptionId, options);
        return new ServiceBusQueueDepths(arm, serviceBusNamespace, queues);
    }

    /// <summary>
    /// The namespace's resource id, or null when <paramref name="text"/> is no Service Bus namespace's.
    /// </summary>
    public static ResourceIdentifier? NamespaceOf(string text)
    {
        try
        {
            return ResourceIdentifier.TryParse(text, out var id) && id?.ResourceType == NamespaceType
                                                                  && id.SubscriptionId is not null
                ? id
                : null;
        }
        catch (FormatException)
        {
            // Parsed lazily: a subscription that is no GUID is refused when its parts are read.
            return null;
        }
    }

    public async Task<IReadOnlyDictionary<string, long>> ReadAsync(CancellationToken cancellationToken)
    {
        var counts = await Task.WhenAll(queues.Select(queue => ActiveMessagesAsync(queue, cancellationToken)));
        var depths = new Dictionary<string, long>(StringComparer.Ordinal);
        for (var i = 0; i < queues.Count; i++)
        {
            if (counts[i] is { } count)
            {
                depths[queues[i]] = count;
            }
        }

        return depths;
    }

    /// <summary>
    /// <c>countDetails.activeMessageCount</c> from a queue's properties; null when they carry none.
    /// </summary>
    public static long? ActiveMessages(BinaryData properties)
    {
        using var json = JsonDocument.Parse(properties);
        return json.RootElement.TryGetProperty("countDetails", out var counts)
               && counts.TryGetProperty("activeMessageCount", out var active)
               && active.TryGetInt64(out var count)
            ? count
            : null;
    }

    private async Task<long?> ActiveMessagesAsync(string queue, CancellationToken cancellationToken)
    {
        var id = serviceBusNamespace.AppendChildResource("queues", queue);
        try
        {
            var queueResource = await arm.GetGenericResource(id).GetAsync(cancellationToken);
            return ActiveMessages(queueResource.Value.Data.Properties);
        }
        catch (RequestFailedException e) when (e.Status == 404)
        {
            return null;
        }
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
