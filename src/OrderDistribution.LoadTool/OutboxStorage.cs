using System.Globalization;
using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using OrderDistribution.Contracts;
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
public sealed class OutboxStorage(BlobServiceClient client, IReadOnlyList<string> outboxes) : IOutboxReader
{
    public const string TestDataContainer = OrderTopology.TestDataContainer;
    public const string OrdersBlob = "orders.json";

    public static readonly string[] DefaultOutboxes = [.. OrderTopology.Outboxes];

    /// <summary>The SDK's bound on one call; the SDK itself never retries: the callers decide (watch waits an
    /// outage out, the others name it and stop).</summary>
    public static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(30);

    public IReadOnlyList<string> Outboxes => outboxes;

    public string Endpoint => client.Uri.ToString().TrimEnd('/');

    /// <summary>How long the first call may take before storage is named unreachable.</summary>
    public TimeSpan ProbeTimeout { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>How long clear waits, at most, for Azure to release a deleted container's name (about 30 s there).</summary>
    public TimeSpan ContainerReleaseBudget { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>How long clear waits between tries to recreate a container Azure still deletes.</summary>
    public TimeSpan ContainerReleaseInterval { get; init; } = TimeSpan.FromSeconds(2);

    public static OutboxStorage Open(StorageOptions options, IReadOnlyList<string> outboxes) =>
        new(BlobClientFactory.Create(options, CallTimeout), outboxes)
        {
            // With an account URL the first call also signs in, which through the Azure CLI takes seconds.
            ProbeTimeout = options.AccountUrl is null ? TimeSpan.FromSeconds(5) : TimeSpan.FromSeconds(30),
        };

    /// <summary>One cheap call with a short timeout, so that a store that is not there is named at once.</summary>
    /// <exception cref="LoadToolException">Storage cannot be reached or refuses the tool.</exception>
    public async Task EnsureReachableAsync(CancellationToken cancellationToken)
    {
        using var probe = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        probe.CancelAfter(ProbeTimeout);
        try
        {
            await client.GetBlobContainerClient(outboxes[0]).ExistsAsync(probe.Token);
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(new TimeoutException($"no answer within {ProbeTimeout.TotalSeconds:0} s", e));
        }
        catch (RequestFailedException e)
        {
            throw Unreachable(e);
        }
    }

    /// <summary>Names what failed and what to do, for a storage call that failed.</summary>
    public LoadToolException Unreachable(Exception e, string doing = "") =>
        e is RequestFailedException { Status: (401 or 403) and var status }
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
        try
        {
            // Metadata in the same call: each blob's stored time comes with its name, at no extra request.
            var pages = client.GetBlobContainerClient(container)
                .GetBlobsAsync(BlobTraits.Metadata, BlobStates.None, prefix: null, cancellationToken)
                .AsPages(pageSizeHint: 5_000);
            await foreach (var page in pages)
            {
                found.AddRange(page.Values.Select(b => new OutboxBlob(
                    container, b.Name, b.Properties.LastModified ?? DateTimeOffset.MinValue,
                    b.Metadata.TryGetValue(OrderBlob.StoredAtMetadata, out var storedAt) ? OrderBlob.ParseStoredAt(storedAt) : null)));
            }
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw StorageFailure.NoAnswer(e);
        }
        catch (RequestFailedException e) when (e.Status == 404)
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
                await client.GetBlobContainerClient(name).DeleteIfExistsAsync(cancellationToken: cancellationToken);
            }

            var started = DateTimeOffset.UtcNow;
            var recreate = new ResiliencePipelineBuilder()
                .AddTimeout(ContainerReleaseBudget)
                .AddRetry(new Polly.Retry.RetryStrategyOptions
                {
                    ShouldHandle = new PredicateBuilder().Handle<RequestFailedException>(StorageFailure.IsContainerBeingDeleted),
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
                    async ct => await client.GetBlobContainerClient(name).CreateIfNotExistsAsync(PublicAccessType.None, cancellationToken: ct),
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
        catch (RequestFailedException e)
        {
            throw Unreachable(e, " while clearing the outboxes");
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(StorageFailure.NoAnswer(e), " while clearing the outboxes");
        }
    }

    public async Task UploadTestDataAsync(byte[] ordersJson, CancellationToken cancellationToken)
    {
        try
        {
            var container = client.GetBlobContainerClient(TestDataContainer);
            await container.CreateIfNotExistsAsync(PublicAccessType.None, cancellationToken: cancellationToken);
            // No conditions: a second generate overwrites the first one's orders.
            await container.GetBlobClient(OrdersBlob).UploadAsync(
                new BinaryData(ordersJson),
                new BlobUploadOptions { HttpHeaders = new BlobHttpHeaders { ContentType = "application/json" } },
                cancellationToken);
        }
        catch (RequestFailedException e)
        {
            throw Unreachable(e, " while uploading test-data/orders.json");
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(StorageFailure.NoAnswer(e), " while uploading test-data/orders.json");
        }
    }
}
