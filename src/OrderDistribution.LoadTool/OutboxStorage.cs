using System.Globalization;
using Microsoft.WindowsAzure.Storage;
using Microsoft.WindowsAzure.Storage.Blob;
using Microsoft.WindowsAzure.Storage.RetryPolicies;
using OrderDistribution.Orders;
using OrderDistribution.Storage;
using Polly;

namespace OrderDistribution.LoadTool;

/// <summary>A blob of an outbox as the watcher sees it.</summary>
/// <param name="StoredAt">When the receiver stored it (its <c>storedat</c> metadata), null if it wrote none.</param>
public sealed record OutboxBlob(string Container, string Name, DateTimeOffset LastModified, DateTimeOffset? StoredAt = null)
{
    /// <summary>The receiver's own stored time (milliseconds and finer), else Last-Modified (whole seconds).</summary>
    public DateTimeOffset StoredOrModified => StoredAt ?? LastModified;
}

/// <summary>What the watcher needs of the store: one listing of one outbox.</summary>
public interface IOutboxReader
{
    /// <summary>Where the store is, for messages.</summary>
    string Endpoint { get; }

    IReadOnlyList<string> Outboxes { get; }

    /// <summary>Every blob of one outbox with its stored time, in one listing (pages of 5,000); empty if the container does not exist.</summary>
    Task<IReadOnlyList<OutboxBlob>> ListAsync(string container, CancellationToken cancellationToken);
}

/// <summary>The two outbox containers and <c>test-data</c> in the storage the receivers write to.</summary>
public sealed class OutboxStorage(CloudBlobClient client, IReadOnlyList<string> outboxes) : IOutboxReader
{
    public const string TestDataContainer = "test-data";
    public const string OrdersBlob = "orders.json";

    public static readonly string[] DefaultOutboxes = ["express-outbox", "standard-outbox"];


    private static readonly BlobRequestOptions Probe = new() { RetryPolicy = new NoRetry(), MaximumExecutionTime = TimeSpan.FromSeconds(5) };

    // No retries inside the SDK: the callers decide (watch waits an outage out, the others name it and stop).
    private static readonly BlobRequestOptions Calls = new() { RetryPolicy = new NoRetry(), MaximumExecutionTime = TimeSpan.FromSeconds(30) };

    public IReadOnlyList<string> Outboxes => outboxes;

    public string Endpoint => client.BaseUri.ToString().TrimEnd('/');

    /// <summary>How long clear waits, at most, for Azure to release a deleted container's name (about 30 s there).</summary>
    public TimeSpan ContainerReleaseBudget { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>How long clear waits between tries to recreate a container Azure still deletes.</summary>
    public TimeSpan ContainerReleaseInterval { get; init; } = TimeSpan.FromSeconds(2);

    public static async Task<OutboxStorage> OpenAsync(StorageOptions options, IReadOnlyList<string> outboxes, CancellationToken cancellationToken) =>
        new(await BlobClientFactory.CreateAsync(options, cancellationToken), outboxes);

    /// <summary>One cheap call with a short timeout, so that a store that is not there is named at once.</summary>
    /// <exception cref="LoadToolException">Storage cannot be reached or refuses the tool.</exception>
    public async Task EnsureReachableAsync(CancellationToken cancellationToken)
    {
        try
        {
            await client.GetContainerReference(outboxes[0]).ExistsAsync(Probe, null, cancellationToken);
        }
        catch (StorageException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(e);
        }
    }

    /// <summary>Names what failed and what to do, for a storage call that failed.</summary>
    public LoadToolException Unreachable(Exception e, string doing = "") =>
        e is StorageException { RequestInformation.HttpStatusCode: (401 or 403) and var status }
            ? new LoadToolException(
                $"Storage at {Endpoint} refused the load tool{doing} ({status}: {FailureText.FirstLine(e.Message)}).",
                "Check --storage (the account key) or, with --storage-account-url, your Storage Blob Data Contributor role.",
                ExitCodes.BadInput, e)
            : new LoadToolException(
                $"Storage at {Endpoint} is not reachable{doing}: {FailureText.Reason(e)}.",
                "Start Azurite and the trio with scripts/run-local.sh, or point --storage / --storage-account-url at a running account.",
                ExitCodes.Unreachable, e);

    public async Task<IReadOnlyList<OutboxBlob>> ListAsync(string container, CancellationToken cancellationToken)
    {
        var found = new List<OutboxBlob>();
        var reference = client.GetContainerReference(container);
        BlobContinuationToken? token = null;
        try
        {
            do
            {
                // Metadata in the same call: each blob's stored time comes with its name, at no extra request.
                var page = await reference.ListBlobsSegmentedAsync(
                    null, true, BlobListingDetails.Metadata, 5_000, token, Calls, null, cancellationToken);
                found.AddRange(page.Results.OfType<CloudBlob>().Select(b => new OutboxBlob(
                    container, b.Name, b.Properties.LastModified ?? DateTimeOffset.MinValue,
                    b.Metadata.TryGetValue(OrderBlob.StoredAtMetadata, out var storedAt) ? OrderBlob.ParseStoredAt(storedAt) : null)));
                token = page.ContinuationToken;
            }
            while (token is not null);
        }
        catch (StorageException e) when (cancellationToken.IsCancellationRequested)
        {
            // The SDK wraps a cancellation: unwrapped, the caller (or its Polly timeout) sees it as one.
            throw new OperationCanceledException("cancelled", e, cancellationToken);
        }
        catch (StorageException e) when (e.RequestInformation?.HttpStatusCode == 404)
        {
            // No container yet (just cleared, no order stored): nothing stored.
            return [];
        }

        return found;
    }

    /// <summary>Every blob of every outbox.</summary>
    public async Task<List<OutboxBlob>> ListAsync(CancellationToken cancellationToken)
    {
        var found = new List<OutboxBlob>();
        foreach (var name in outboxes)
        {
            found.AddRange(await ListAsync(name, cancellationToken));
        }

        return found;
    }

    /// <summary>
    /// Deletes the outbox containers (one call each, whatever they hold: Azurite drops 10,000 blobs in about
    /// 0.05 s), then creates them again. Azure keeps a deleted container's name blocked for about 30 s
    /// ("ContainerBeingDeleted"): that is waited out, bounded by <see cref="ContainerReleaseBudget"/>, so the
    /// next run finds its containers. (The receivers also recreate a missing container on their next write.)
    /// </summary>
    /// <param name="waiting">Told which container is still being deleted, and since when.</param>
    /// <exception cref="LoadToolException">Storage failed, or kept a name blocked past the budget.</exception>
    public async Task ClearAsync(IProgress<string>? waiting, CancellationToken cancellationToken)
    {
        try
        {
            foreach (var name in outboxes)
            {
                await client.GetContainerReference(name).DeleteIfExistsAsync(null, Calls, null, cancellationToken);
            }

            var started = DateTimeOffset.UtcNow;
            var recreate = new ResiliencePipelineBuilder()
                .AddTimeout(ContainerReleaseBudget)
                .AddRetry(new Polly.Retry.RetryStrategyOptions
                {
                    ShouldHandle = new PredicateBuilder().Handle<StorageException>(IsContainerBeingDeleted),
                    MaxRetryAttempts = int.MaxValue,
                    Delay = ContainerReleaseInterval,
                    BackoffType = DelayBackoffType.Constant,
                    OnRetry = args =>
                    {
                        waiting?.Report(string.Create(CultureInfo.InvariantCulture,
                            $"storage still deletes the old container ({(DateTimeOffset.UtcNow - started).TotalSeconds:0} s)"));
                        return default;
                    },
                })
                .Build();
            foreach (var name in outboxes)
            {
                await recreate.ExecuteAsync(
                    async ct =>
                    {
                        try
                        {
                            await client.GetContainerReference(name).CreateIfNotExistsAsync(BlobContainerPublicAccessType.Off, Calls, null, ct);
                        }
                        catch (StorageException e) when (ct.IsCancellationRequested)
                        {
                            // The SDK wraps a cancellation; unwrapped, Polly sees its own timeout.
                            throw new OperationCanceledException("cancelled", e, ct);
                        }
                    },
                    cancellationToken);
            }
        }
        catch (Polly.Timeout.TimeoutRejectedException e)
        {
            throw new LoadToolException(
                $"Storage at {Endpoint} still had the outboxes 'being deleted' after {ContainerReleaseBudget.TotalSeconds:0} s.",
                "Run the next burst anyway (the receivers create a missing outbox on their next write), or clear again in a minute.",
                ExitCodes.Unreachable, e);
        }
        catch (StorageException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(e, " while clearing the outboxes");
        }
    }

    public async Task UploadTestDataAsync(byte[] ordersJson, CancellationToken cancellationToken)
    {
        try
        {
            var container = client.GetContainerReference(TestDataContainer);
            await container.CreateIfNotExistsAsync(BlobContainerPublicAccessType.Off, Calls, null, cancellationToken);
            var blob = container.GetBlockBlobReference(OrdersBlob);
            blob.Properties.ContentType = "application/json";
            await blob.UploadFromByteArrayAsync(ordersJson, 0, ordersJson.Length, null, Calls, null, cancellationToken);
        }
        catch (StorageException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(e, " while uploading test-data/orders.json");
        }
    }

    /// <summary>A failure a later try may not meet: no answer, a timeout, throttling, a server error.</summary>
    public static bool IsTransient(Exception exception) =>
        StorageFailure.IsTransient(exception) || exception is TimeoutException or StorageException { InnerException: TimeoutException };

    private static bool IsContainerBeingDeleted(StorageException exception) =>
        exception.RequestInformation is { HttpStatusCode: 409, ErrorCode: "ContainerBeingDeleted" };
}
