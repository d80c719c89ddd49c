using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using OrderDistribution.Contracts;
using OrderDistribution.Storage;

namespace OrderDistribution.LoadTool.Store;

/// <summary>The two outbox containers and <c>test-data</c> in the storage the receivers write to.</summary>
/// <param name="time">The clock of the hold on the store, its outages and clear's waits.</param>
public sealed partial class OutboxStorage(
    BlobServiceClient client, IReadOnlyList<string> outboxes, TimeProvider? time = null) : IOutboxReader
{
    public const string OrdersBlob = "orders.json";

    /// <summary>The SDK's bound on one call; the SDK itself never retries: the callers decide (watch waits an
    /// outage out, the others name it and stop).</summary>
    public static readonly TimeSpan CallTimeout = TimeSpan.FromSeconds(30);

    public IReadOnlyList<string> Outboxes => outboxes;

    public string Endpoint => client.Uri.ToString().TrimEnd('/');

    public TimeProvider Time { get; } = time ?? TimeProvider.System;

    /// <summary>This store's outages, as the lease and the watch meet them.</summary>
    public StoreOutage Outage { get; } = new(client.Uri.ToString().TrimEnd('/'), time);

    /// <summary>
    /// How long opening a connection may take before storage is named unreachable: a store that is there but busy
    /// (a burst storing into it) answers late, and is waited for like any call (<see cref="CallTimeout"/>).
    /// </summary>
    public static readonly TimeSpan ConnectTimeout = TimeSpan.FromSeconds(10);

    public static OutboxStorage Open(StorageOptions options, IReadOnlyList<string> outboxes, TimeProvider time) =>
        new(BlobClientFactory.Create(options, CallTimeout, connectTimeout: ConnectTimeout), outboxes, time)
        {
            KeepContainers = options.AccountUrl is not null,
        };

    /// <summary>
    /// One cheap call, so that a store that is not there is named at once: refused at once, or no connection within
    /// <see cref="ConnectTimeout"/>. One that answers late is waited for: the trio waits a busy store out too.
    /// </summary>
    /// <exception cref="LoadToolException">Storage cannot be reached or refuses the tool.</exception>
    public async Task EnsureReachableAsync(CancellationToken cancellationToken)
    {
        try
        {
            await client.GetBlobContainerClient(outboxes[0]).ExistsAsync(cancellationToken);
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(StorageFailure.NoAnswer(e));
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
                "Check --storage (the account key) or, with --storage-account-url, your Storage Blob Data " +
                "Contributor role.",
                ExitCodes.BadInput, e)
            : new LoadToolException(
                $"Storage at {Endpoint} is not reachable{doing}: {FailureText.Reason(e)}.",
                "Start Azurite and the trio with scripts/run-local.sh, or point --storage / --storage-account-url at " +
                "a running account.",
                ExitCodes.Unreachable, e);

    /// <summary>
    /// Takes the store for one burst at a time: the lease on the marker blob in the tool's own container.
    /// </summary>
    /// <exception cref="LoadToolException">Another burst holds the store, or storage failed or refused the
    /// tool.</exception>
    public async Task<StoreLease> HoldAsync(LeaseHolder holder, TimeSpan duration, CancellationToken cancellationToken)
    {
        const string doing =
            " while taking the lease on " + OrderTopology.LoadToolContainer + "/" + StoreLease.MarkerBlob;
        try
        {
            return await StoreLease.TakeAsync(client, holder, duration, Outage, Time, cancellationToken);
        }
        catch (RequestFailedException e) when (e.Status == 403 && KeepContainers)
        {
            throw new LoadToolException(
                $"Storage at {Endpoint} refused the load tool the container {OrderTopology.LoadToolContainer} (403: " +
                $"{FailureText.FirstLine(e.Message)}).",
                "Run 'azd provision': the deployment makes that container and gives you the right to hold it.",
                ExitCodes.BadInput, e);
        }
        catch (RequestFailedException e)
        {
            throw Unreachable(e, doing);
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(StorageFailure.NoAnswer(e), doing);
        }
    }

    /// <summary>A listing page holds this many names at most (the service's own maximum).</summary>
    public const int PageSize = 5_000;

    public async Task<OutboxPage> ListPageAsync(
        string container, string prefix, string? continuation, int pageSize, bool storedTimes,
        CancellationToken cancellationToken)
    {
        try
        {
            // With metadata, each blob's stored time comes with its name, at no extra request; without, the listing
            // is smaller to send and to read (docs/load-tool.md, "Watching at scale").
            var traits = storedTimes ? BlobTraits.Metadata : BlobTraits.None;
            var pages = client.GetBlobContainerClient(container)
                .GetBlobsAsync(traits, BlobStates.None, prefix.Length == 0 ? null : prefix, cancellationToken)
                .AsPages(continuation, pageSize);
            await foreach (var page in pages)
            {
                return new OutboxPage(
                    [.. page.Values.Select(b => new OutboxBlob(
                        container, b.Name, b.Properties.LastModified ?? DateTimeOffset.MinValue,
                        b.Metadata is { } metadata && metadata.TryGetValue(OrderBlob.StoredAtMetadata, out var storedAt)
                            ? OrderBlob.ParseStoredAt(storedAt)
                            : null))],
                    string.IsNullOrEmpty(page.ContinuationToken) ? null : page.ContinuationToken);
            }

            return new OutboxPage([], null);
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            throw StorageFailure.NoAnswer(e);
        }
        catch (RequestFailedException e) when (e.Status == 404)
        {
            // No container yet (just cleared, no order stored): nothing stored.
            return new OutboxPage([], null);
        }
    }

    public async Task UploadTestDataAsync(Stream ordersJson, CancellationToken cancellationToken)
    {
        try
        {
            var container = client.GetBlobContainerClient(OrderTopology.TestDataContainer);
            await container.CreateIfNotExistsAsync(PublicAccessType.None, cancellationToken: cancellationToken);
            // No conditions: a second generate overwrites the first one's orders.
            await container.GetBlobClient(OrdersBlob).UploadAsync(
                ordersJson,
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
