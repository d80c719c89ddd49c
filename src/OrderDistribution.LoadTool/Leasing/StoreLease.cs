using System.Globalization;
using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Azure.Storage.Blobs.Specialized;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;

namespace OrderDistribution.LoadTool.Leasing;

/// <summary>
/// One burst at a time per store: a blob lease on a marker blob in the tool's own container, the same calls in Azure and
/// Azurite. The holder's command, host, start and burst are the marker's metadata, so that a tool refused can say who
/// holds the store. The lease lasts <see cref="Duration"/> and is renewed four times as often in the background: a tool
/// that is killed lets go within <see cref="Duration"/>. A renewal that fails for good (another tool took the lease,
/// or storage did not answer until it lapsed) cancels <see cref="Lost"/>: the burst it held for is no measurement.
/// </summary>
public sealed class StoreLease : IAsyncDisposable
{
    public const string MarkerBlob = "burst-in-flight";

    /// <summary>The default: a killed tool's hold lapses within half a minute.</summary>
    public static readonly TimeSpan DefaultDuration = TimeSpan.FromSeconds(30);

    /// <summary>The shortest and the longest finite lease the Blob service grants.</summary>
    public static readonly TimeSpan ShortestDuration = TimeSpan.FromSeconds(15);

    public static readonly TimeSpan LongestDuration = TimeSpan.FromSeconds(60);

    private readonly BlobClient _marker;
    private readonly BlobLeaseClient _lease;
    private readonly string _endpoint;
    private readonly CancellationTokenSource _stop = new();
    private readonly CancellationTokenSource _lost = new();
    private Task _renewing = Task.CompletedTask;

    private StoreLease(BlobClient marker, BlobLeaseClient lease, string endpoint, LeaseHolder holder, TimeSpan duration)
    {
        _marker = marker;
        _lease = lease;
        _endpoint = endpoint;
        Holder = holder;
        Duration = duration;
    }

    public LeaseHolder Holder { get; }

    public TimeSpan Duration { get; }

    /// <summary>Cancelled once the lease is lost for good; <see cref="LostBecause"/> says why.</summary>
    public CancellationToken Lost => _lost.Token;

    public string? LostBecause { get; private set; }

    /// <summary>Takes the store for <paramref name="holder"/>, or refuses at once if another tool holds it.</summary>
    /// <exception cref="LoadToolException">Another tool holds the store (<see cref="ExitCodes.StoreBusy"/>).</exception>
    /// <exception cref="RequestFailedException">Storage failed or refused the tool; the caller names it.</exception>
    public static async Task<StoreLease> TakeAsync(
        BlobServiceClient service, LeaseHolder holder, TimeSpan duration, CancellationToken cancellationToken)
    {
        var container = service.GetBlobContainerClient(OrderTopology.LoadToolContainer);
        var marker = container.GetBlobClient(MarkerBlob);
        var lease = marker.GetBlobLeaseClient();
        var endpoint = service.Uri.ToString().TrimEnd('/');
        try
        {
            await lease.AcquireAsync(duration, cancellationToken: cancellationToken);
        }
        catch (RequestFailedException e) when (e.Status == 404)
        {
            // The first burst on this store: locally the container is made here; in Azure the deployment made it.
            if (!await container.ExistsAsync(cancellationToken))
            {
                await container.CreateIfNotExistsAsync(PublicAccessType.None, cancellationToken: cancellationToken);
            }

            await CreateMarkerAsync(marker, cancellationToken);
            await lease.AcquireAsync(duration, cancellationToken: cancellationToken);
        }
        catch (RequestFailedException e) when (e.Status == 409)
        {
            throw await RefusedAsync(marker, endpoint, cancellationToken);
        }

        var taken = new StoreLease(marker, lease, endpoint, holder, duration);
        try
        {
            await marker.SetMetadataAsync(holder.Metadata(), new BlobRequestConditions { LeaseId = lease.LeaseId }, cancellationToken);
        }
        catch
        {
            await taken.DisposeAsync();
            throw;
        }

        taken._renewing = Task.Run(taken.RenewAsync, CancellationToken.None);
        return taken;
    }

    /// <summary>Throws the one line that says the lease was lost, if it was.</summary>
    /// <exception cref="LoadToolException">The lease was lost (<see cref="ExitCodes.SharedStore"/>).</exception>
    public void ThrowIfLost()
    {
        if (_lost.IsCancellationRequested)
        {
            throw LostException();
        }
    }

    /// <summary>
    /// Runs <paramref name="work"/> while the store is held: it is cancelled when the lease is lost, and then ends in the
    /// one line that says so, whatever it was doing.
    /// </summary>
    /// <exception cref="LoadToolException">The lease was lost meanwhile (<see cref="ExitCodes.SharedStore"/>).</exception>
    public async Task<T> HoldingAsync<T>(Func<CancellationToken, Task<T>> work, CancellationToken cancellationToken)
    {
        using var both = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, _lost.Token);
        T result;
        try
        {
            result = await work(both.Token);
        }
        catch (Exception e) when (_lost.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            throw LostException(e);
        }

        ThrowIfLost();
        return result;
    }

    /// <summary>Stops renewing and lets go of the store, emptying the marker's metadata; a failure only leaves the lease to lapse.</summary>
    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _renewing;
        if (!_lost.IsCancellationRequested)
        {
            // Not the caller's token: a cancelled burst still lets go at once.
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            try
            {
                await _marker.SetMetadataAsync(new Dictionary<string, string>(), new BlobRequestConditions { LeaseId = _lease.LeaseId }, timeout.Token);
                await _lease.ReleaseAsync(cancellationToken: timeout.Token);
            }
            catch (Exception e) when (e is RequestFailedException or OperationCanceledException)
            {
                // The lease lapses on its own within Duration.
            }
        }

        _stop.Dispose();
        _lost.Dispose();
    }

    private static async Task CreateMarkerAsync(BlobClient marker, CancellationToken cancellationToken)
    {
        try
        {
            await marker.UploadAsync(BinaryData.Empty, new BlobUploadOptions { Conditions = new BlobRequestConditions { IfNoneMatch = ETag.All } }, cancellationToken);
        }
        catch (RequestFailedException e) when (e.Status is 409 or 412)
        {
            // Another tool made it first.
        }
    }

    /// <summary>The refusal, naming the holder from the marker's metadata (which the holder writes just after it takes the lease).</summary>
    private static async Task<LoadToolException> RefusedAsync(BlobClient marker, string endpoint, CancellationToken cancellationToken)
    {
        LeaseHolder? holder = null;
        for (var attempt = 0; attempt < 3 && holder is null; attempt++)
        {
            if (attempt > 0)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(500), cancellationToken);
            }

            holder = LeaseHolder.From((await marker.GetPropertiesAsync(cancellationToken: cancellationToken)).Value.Metadata);
        }

        var who = holder is null
            ? "a tool that has not said who it is"
            : string.Create(CultureInfo.InvariantCulture,
                $"order-load {holder.Command}{(holder.Burst is { } burst ? $" (burst {burst})" : "")} from host {holder.Host}, started {holder.StartedAt:yyyy-MM-dd HH:mm:ss} UTC");
        return new LoadToolException(
            $"Refused: another burst holds storage at {endpoint}: {who}. Nothing was changed; run again once it ends (a killed tool lets go within a minute).",
            null, ExitCodes.StoreBusy);
    }

    private async Task RenewAsync()
    {
        var every = Duration / 4;
        var renewedAt = DateTimeOffset.UtcNow;
        while (true)
        {
            try
            {
                await Task.Delay(every, _stop.Token);
            }
            catch (OperationCanceledException)
            {
                return;
            }

            try
            {
                using var call = CancellationTokenSource.CreateLinkedTokenSource(_stop.Token);
                call.CancelAfter(every);
                await _lease.RenewAsync(cancellationToken: call.Token);
                renewedAt = DateTimeOffset.UtcNow;
            }
            catch (Exception) when (_stop.IsCancellationRequested)
            {
                return;
            }
            catch (RequestFailedException e) when (e.Status is 404 or 409 or 412)
            {
                // Taken by another tool after it lapsed, broken, or the marker deleted: gone for good.
                Lose($"storage refused to renew it ({e.Status}: {FailureText.FirstLine(e.Message)})");
                return;
            }
            catch (Exception e)
            {
                if (DateTimeOffset.UtcNow + every >= renewedAt + Duration)
                {
                    Lose(string.Create(CultureInfo.InvariantCulture,
                        $"storage did not renew it for {(DateTimeOffset.UtcNow - renewedAt).TotalSeconds:0} s ({FailureText.Reason(e)}), so it lapsed"));
                    return;
                }
            }
        }
    }

    private void Lose(string because)
    {
        LostBecause = string.Create(CultureInfo.InvariantCulture, $"{because} at {DateTimeOffset.UtcNow:HH:mm:ss} UTC");
        _lost.Cancel();
    }

    private LoadToolException LostException(Exception? inner = null) => new(
        $"Lost the hold on storage at {_endpoint}: {LostBecause}. Another burst may have shared the store, so this one has no result.",
        null, ExitCodes.SharedStore, inner);
}
