using System.Globalization;
using Azure;
using Azure.Storage.Blobs.Models;
using OrderDistribution.Storage;
using Polly;

namespace OrderDistribution.LoadTool.Store;

/// <summary>Clear: emptying the outboxes before a burst, so that its watch counts only the burst's orders.</summary>
public sealed partial class OutboxStorage
{
    /// <summary>Clear deletes the blobs and keeps the containers (Entra ID, role assignments scoped to the containers),
    /// else deletes and recreates the containers.</summary>
    public bool KeepContainers { get; init; }

    /// <summary>
    /// How long clear waits, at most, for Azure to release a deleted container's name (about 30 s there).
    /// </summary>
    public TimeSpan ContainerReleaseBudget { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>How long clear waits between tries to recreate a container Azure still deletes.</summary>
    public TimeSpan ContainerReleaseInterval { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Deletes clear runs at once: one process's share of the account's request rate, whatever the outboxes hold.
    /// </summary>
    public int ClearConcurrency { get; init; } = 32;

    /// <summary>Blobs per listing page while clearing: the service's largest.</summary>
    public int ClearPageSize { get; init; } = PageSize;

    /// <summary>
    /// Empties the outboxes. Signed in with Entra ID (<see cref="KeepContainers"/>), blob by blob and the containers
    /// stay; with a key (Azurite), by deleting and creating the containers again, which is one call however many blobs
    /// they hold.
    /// </summary>
    /// <param name="progress">Told how far the deletes are, or which container Azure still deletes.</param>
    /// <exception cref="LoadToolException">Storage failed, or kept a name blocked past the budget.</exception>
    public async Task ClearAsync(IProgress<string>? progress, CancellationToken cancellationToken)
    {
        try
        {
            await (KeepContainers ? DeleteBlobsAsync(progress, cancellationToken)
                : RecreateContainersAsync(progress, cancellationToken));
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

    /// <summary>
    /// Deletes every blob of the outboxes, a listing page at a time, with at most <see cref="ClearConcurrency"/>
    /// deletes at once. The containers stay: in Azure the role assignments that let the receivers and the user write
    /// there are scoped to them (infra/main.bicep), and a deleted container takes its role assignments with it. A
    /// missing outbox is created.
    /// </summary>
    private async Task DeleteBlobsAsync(IProgress<string>? progress, CancellationToken cancellationToken)
    {
        var parallel =
            new ParallelOptions { MaxDegreeOfParallelism = ClearConcurrency, CancellationToken = cancellationToken };
        foreach (var name in outboxes)
        {
            var container = client.GetBlobContainerClient(name);
            if (!await container.ExistsAsync(cancellationToken))
            {
                await container.CreateIfNotExistsAsync(PublicAccessType.None, cancellationToken: cancellationToken);
                continue;
            }

            var deleted = 0;
            await foreach (var page in container.GetBlobsAsync(BlobTraits.None, BlobStates.None, prefix: null,
                cancellationToken).AsPages(pageSizeHint: ClearPageSize))
            {
                await Parallel.ForEachAsync(page.Values, parallel, async (blob, ct) =>
                    await container.DeleteBlobIfExistsAsync(blob.Name, DeleteSnapshotsOption.IncludeSnapshots,
                        cancellationToken: ct));
                deleted += page.Values.Count;
                progress?.Report(string.Create(CultureInfo.InvariantCulture, $"{name}: {deleted} blobs deleted"));
            }
        }
    }

    /// <summary>
    /// With a key (Azurite): deletes the outbox containers (one call each, whatever they hold: Azurite drops 10,000
    /// blobs in about 0.05 s), then creates them again. Azure keeps a deleted container's name blocked for about 30 s
    /// ("ContainerBeingDeleted"): that is waited out, bounded by <see cref="ContainerReleaseBudget"/>, so the next run
    /// finds its containers. (The receivers also recreate a missing container on their next write.)
    /// </summary>
    private async Task RecreateContainersAsync(IProgress<string>? waiting, CancellationToken cancellationToken)
    {
        try
        {
            foreach (var name in outboxes)
            {
                await client.GetBlobContainerClient(name).DeleteIfExistsAsync(cancellationToken: cancellationToken);
            }

            var started = Time.GetUtcNow();
            var recreate = new ResiliencePipelineBuilder { TimeProvider = Time }
                .AddTimeout(ContainerReleaseBudget)
                .AddRetry(new Polly.Retry.RetryStrategyOptions
                {
                    ShouldHandle =
                        new PredicateBuilder().Handle<RequestFailedException>(StorageFailure.IsContainerBeingDeleted),
                    MaxRetryAttempts = int.MaxValue,
                    Delay = ContainerReleaseInterval,
                    BackoffType = DelayBackoffType.Constant,
                    OnRetry = args =>
                    {
                        waiting?.Report(string.Create(CultureInfo.InvariantCulture,
                            $"storage still deletes the old container " +
                            $"({(Time.GetUtcNow() - started).TotalSeconds:0} s)"));
                        return default;
                    },
                })
                .Build();
            foreach (var name in outboxes)
            {
                await recreate.ExecuteAsync(
                    async ct => await client.GetBlobContainerClient(name)
                        .CreateIfNotExistsAsync(PublicAccessType.None, cancellationToken: ct),
                    cancellationToken);
            }
        }
        catch (Polly.Timeout.TimeoutRejectedException e)
        {
            throw new LoadToolException(
                $"Storage at {Endpoint} still had the outboxes 'being deleted' after " +
                $"{ContainerReleaseBudget.TotalSeconds:0} s.",
                "Run the next burst anyway (the receivers create a missing outbox on their next write), or clear " +
                "again in a minute.",
                ExitCodes.Unreachable, e);
        }
    }
}
