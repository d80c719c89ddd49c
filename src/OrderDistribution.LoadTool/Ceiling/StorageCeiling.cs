using System.Collections.Concurrent;
using Azure;
using Azure.Identity;
using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.Receiver;
using OrderDistribution.Storage;

namespace OrderDistribution.LoadTool.Ceiling;

/// <summary>
/// Storage alone, the ceiling of every model: order blobs uploaded straight into the container
/// <see cref="OrderTopology.StorageAloneContainer"/>, a fixed number in flight (as the receivers bound their writes),
/// timed to the last. What it writes it removes afterwards: the container, when the measurement created it (locally),
/// else its own blobs (in Azure, where the deployment made the container and the user may write only there). The
/// outboxes are never touched.
/// </summary>
public sealed class StorageCeiling(BlobServiceClient service, TimeProvider? clock = null)
{
    private readonly TimeProvider _time = clock ?? TimeProvider.System;

    /// <summary>The label of its results.</summary>
    public const string Label = "storage-alone";

    public string Endpoint => service.Uri.ToString().TrimEnd('/');

    /// <summary>
    /// The receivers' blob client, retried as they retry their writes (twice, each attempt bounded by
    /// Storage:RequestTimeout), so that storage alone is measured under the same rules as the models.
    /// </summary>
    public static StorageCeiling Open(StorageOptions options, TimeProvider? time = null) =>
        new(BlobClientFactory.Create(options, options.RequestTimeout, maxRetries: 2), time);

    /// <summary>
    /// Removes from the scratch container the order blobs an earlier measurement left there (one killed before it
    /// removed them), so that this one does not measure into a container full of them; other blobs stay. Only a
    /// measurement writes order blobs there, and the store's lease keeps any other off while this runs.
    /// </summary>
    /// <returns>How many blobs it removed.</returns>
    /// <exception cref="LoadToolException">
    /// Storage cannot be reached, refuses the tool, or a blob could not be removed.
    /// </exception>
    public async Task<int> RemoveLeftoversAsync(int inFlight, CancellationToken cancellationToken)
    {
        var container = service.GetBlobContainerClient(OrderTopology.StorageAloneContainer);
        var names = new List<string>();
        try
        {
            if (!await container.ExistsAsync(cancellationToken))
            {
                return 0;
            }

            await foreach (var blob in container.GetBlobsAsync(cancellationToken: cancellationToken))
            {
                if (OrderBlob.OrderIdOf(blob.Name) is not null)
                {
                    names.Add(blob.Name);
                }
            }
        }
        catch (Exception e) when (e is AuthenticationFailedException or CredentialUnavailableException)
        {
            throw LoadToolException.SignInFailed(Endpoint, e);
        }
        catch (Exception e) when (e is RequestFailedException or AggregateException
                                  && !cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(e);
        }

        var kept = 0;
        string? reason = null;
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = inFlight, CancellationToken = cancellationToken };
        await Parallel.ForEachAsync(names, parallel, async (name, ct) =>
        {
            try
            {
                await container.GetBlobClient(name).DeleteIfExistsAsync(cancellationToken: ct);
            }
            catch (Exception e) when (e is RequestFailedException or AggregateException && !ct.IsCancellationRequested)
            {
                Interlocked.Increment(ref kept);
                Interlocked.CompareExchange(ref reason, FailureText.Reason(e), null);
            }
        });
        return kept == 0
            ? names.Count
            : throw new LoadToolException(
                $"The scratch container {OrderTopology.StorageAloneContainer} at {Endpoint} holds {names.Count} " +
                $"order blobs an earlier measurement left, and {kept} could not be removed ({reason}): storage " +
                "alone would not be measured alone.",
                $"Delete the order blobs of {OrderTopology.StorageAloneContainer} by hand, then run ceiling again.",
                ExitCodes.Unreachable);
    }

    /// <summary>
    /// Uploads each order as blob <c>{OrderId}.json</c>, as a receiver stores it, <paramref name="inFlight"/> at a
    /// time.
    /// </summary>
    /// <exception cref="LoadToolException">Storage cannot be reached, or refuses the tool.</exception>
    public async Task<CeilingResult> MeasureAsync(
        IReadOnlyList<Order> orders, int inFlight, IProgress<int>? progress, CancellationToken cancellationToken)
    {
        var blobs = orders
            .Select(o => (Name: OrderBlob.NameOf(o), Content: BinaryData.FromBytes(OrderJson.Serialize(o))))
            .ToList();
        var container = service.GetBlobContainerClient(OrderTopology.StorageAloneContainer);
        bool created;
        try
        {
            // Asked first: in Azure the user may not create containers, only write into the one deployed for this.
            created = !await container.ExistsAsync(cancellationToken)
                      && await container.CreateIfNotExistsAsync(cancellationToken: cancellationToken) is not null;
        }
        catch (Exception e) when (e is AuthenticationFailedException or CredentialUnavailableException)
        {
            throw LoadToolException.SignInFailed(Endpoint, e);
        }
        catch (Exception e) when (e is RequestFailedException or AggregateException
                                  && !cancellationToken.IsCancellationRequested)
        {
            throw Unreachable(e);
        }

        var uploadedAt = new ConcurrentQueue<DateTimeOffset>();
        var failed = 0;
        string? firstFailure = null;
        var startedAt = _time.GetUtcNow();
        var began = _time.GetTimestamp();
        var elapsed = TimeSpan.Zero;
        string? leftBehind;
        try
        {
            var parallel = new ParallelOptions
            {
                MaxDegreeOfParallelism = inFlight,
                CancellationToken = cancellationToken,
            };
            await Parallel.ForEachAsync(blobs, parallel, async (blob, ct) =>
            {
                try
                {
                    await container.GetBlobClient(blob.Name)
                        .UploadAsync(blob.Content, BlobOrderStore.UploadOptions(_time.GetUtcNow()), ct);
                    uploadedAt.Enqueue(_time.GetUtcNow());
                    progress?.Report(uploadedAt.Count);
                }
                catch (Exception e) when (e is RequestFailedException or AggregateException
                                          && !ct.IsCancellationRequested)
                {
                    // The SDK has retried it already: counted, and the first reason kept for the summary.
                    Interlocked.Increment(ref failed);
                    Interlocked.CompareExchange(ref firstFailure, FailureText.Reason(e), null);
                }
            });
        }
        finally
        {
            elapsed = _time.GetElapsedTime(began);
            // Cancelled or not: the scratch container keeps nothing of this measurement.
            leftBehind = await RemoveAsync(container, created, blobs.Select(b => b.Name).ToList(), inFlight);
        }

        return new CeilingResult(
            orders.Count, inFlight, startedAt, elapsed, [.. uploadedAt.Order()], failed, firstFailure,
            leftBehind);
    }

    /// <summary>
    /// Deletes the container the measurement created, or else the blobs it wrote into one that was there.
    /// </summary>
    /// <returns>The container's name if what was written could not be removed, else null.</returns>
    private async Task<string?> RemoveAsync(
        BlobContainerClient container, bool created, List<string> written, int inFlight)
    {
        // Not the caller's token: a cancelled measurement still removes what it wrote.
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(created ? 30 : 120), _time);
        try
        {
            if (created)
            {
                await container.DeleteIfExistsAsync(cancellationToken: timeout.Token);
            }
            else
            {
                var parallel = new ParallelOptions
                {
                    MaxDegreeOfParallelism = inFlight,
                    CancellationToken = timeout.Token,
                };
                await Parallel.ForEachAsync(written, parallel,
                    async (name, ct) => await container.GetBlobClient(name).DeleteIfExistsAsync(cancellationToken: ct));
            }

            return null;
        }
        catch (Exception e) when (e is RequestFailedException or AggregateException or OperationCanceledException)
        {
            return container.Name;
        }
    }

    private LoadToolException Unreachable(Exception e) =>
        e is RequestFailedException { Status: 401 or 403 } refused
            ? new LoadToolException(
                $"Storage at {Endpoint} refused the load tool ({refused.Status}: " +
                $"{FailureText.FirstLine(refused.Message)}).",
                "Check --storage (the account key) or, with --storage-account-url, your Storage Blob Data " +
                "Contributor role.",
                ExitCodes.BadInput, e)
            : new LoadToolException(
                $"Storage at {Endpoint} is not reachable: {FailureText.Reason(e)}.",
                "Start Azurite (scripts/run-local.sh), or point --storage / --storage-account-url at a running " +
                "account.",
                ExitCodes.Unreachable, e);
}
