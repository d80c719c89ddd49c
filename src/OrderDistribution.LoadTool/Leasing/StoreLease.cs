using System.Globalization;
using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Azure.Storage.Blobs.Specialized;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Leasing;

/// <summary>
/// One burst at a time per store: a blob lease on a marker blob in the tool's own container, the same calls in Azure and
/// Azurite. The holder's command, host, start and burst are the marker's metadata, so that a tool refused can say who
/// holds the store. The lease lasts <see cref="Duration"/> and is renewed four times as often in the background: a tool
/// that is killed lets go within <see cref="Duration"/>. A renewal that storage refuses (another tool took the lease
/// or broke it) cancels <see cref="Lost"/>: the burst it held for is no measurement. A renewal that gets no answer (an
/// outage) does not: once storage answers again the lease is renewed, or taken again if it lapsed, on condition that
/// the marker is as this tool left it; if another tool took the store meanwhile, that one is named and the lease lost.
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
    private readonly SemaphoreSlim _calls = new(1, 1);
    private readonly StoreOutage _outage;
    private Task _renewing = Task.CompletedTask;

    /// <summary>The marker as this tool wrote it: another tool that takes the store writes its own metadata.</summary>
    private ETag _written;

    /// <summary>When a renewal first went unanswered, until the lease is renewed or taken again.</summary>
    private DateTimeOffset? _unrenewedSince;

    private StoreLease(BlobClient marker, BlobLeaseClient lease, string endpoint, LeaseHolder holder, TimeSpan duration, StoreOutage outage)
    {
        _marker = marker;
        _lease = lease;
        _endpoint = endpoint;
        _outage = outage;
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
    /// <param name="outage">Told of renewals that get no answer, and of the first answer after them.</param>
    public static async Task<StoreLease> TakeAsync(
        BlobServiceClient service, LeaseHolder holder, TimeSpan duration, StoreOutage outage, CancellationToken cancellationToken)
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

        var taken = new StoreLease(marker, lease, endpoint, holder, duration, outage);
        try
        {
            taken._written = (await marker.SetMetadataAsync(holder.Metadata(), new BlobRequestConditions { LeaseId = lease.LeaseId }, cancellationToken)).Value.ETag;
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
    /// Before a result is kept: if a renewal went unanswered since the last one storage answered, asks storage now
    /// whether the store is still this tool's (the renewals may not have come to it yet), and throws if it is not.
    /// </summary>
    /// <exception cref="LoadToolException">The lease was lost (<see cref="ExitCodes.SharedStore"/>).</exception>
    public async Task ConfirmAsync(CancellationToken cancellationToken)
    {
        await _calls.WaitAsync(cancellationToken);
        try
        {
            if (_unrenewedSince is not null && !_lost.IsCancellationRequested)
            {
                await RenewOrRegainAsync(cancellationToken);
            }
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested && (e is OperationCanceledException || StoreOutage.IsOutage(e)))
        {
            throw new LoadToolException(
                $"Storage at {_endpoint} did not answer whether another burst took the store while it was away: {FailureText.Reason(e)}.",
                "Run the burst again once storage answers.", ExitCodes.Unreachable, e);
        }
        finally
        {
            _calls.Release();
        }

        ThrowIfLost();
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
                // Who held it stays, under keys that name no holder: a burst that was away meanwhile can say who came.
                await _marker.SetMetadataAsync(Holder.Released(), new BlobRequestConditions { LeaseId = _lease.LeaseId }, timeout.Token);
                await _lease.ReleaseAsync(cancellationToken: timeout.Token);
            }
            catch (Exception e) when (e is RequestFailedException or OperationCanceledException)
            {
                // The lease lapses on its own within Duration.
            }
        }

        _stop.Dispose();
        _lost.Dispose();
        _calls.Dispose();
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

        var who = holder?.Describe() ?? "a tool that has not said who it is";
        return new LoadToolException(
            $"Refused: another burst holds storage at {endpoint}: {who}. Nothing was changed; run again once it ends (a killed tool lets go within a minute).",
            null, ExitCodes.StoreBusy);
    }

    private async Task RenewAsync()
    {
        var every = Duration / 4;
        while (true)
        {
            try
            {
                await Task.Delay(every, _stop.Token);
                await _calls.WaitAsync(_stop.Token);
            }
            catch (OperationCanceledException)
            {
                return;
            }

            try
            {
                using var call = CancellationTokenSource.CreateLinkedTokenSource(_stop.Token);
                call.CancelAfter(every);
                await RenewOrRegainAsync(call.Token);
            }
            catch (Exception) when (_stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e) when (e is OperationCanceledException || StoreOutage.IsOutage(e))
            {
                // No answer: storage is away, and so is any other tool that would take the store from it.
                _unrenewedSince ??= DateTimeOffset.UtcNow;
                _outage.Failed(e);
            }
            catch (Exception e)
            {
                Lose($"renewing it failed ({FailureText.Reason(e)})");
            }
            finally
            {
                _calls.Release();
            }

            if (_lost.IsCancellationRequested)
            {
                return;
            }
        }
    }

    /// <summary>
    /// Renews the lease; after renewals that got no answer, renews it only if the marker is as this tool wrote it, and
    /// takes it again, on the same condition, if it lapsed and nobody holds it. Loses it when storage refuses.
    /// </summary>
    private async Task RenewOrRegainAsync(CancellationToken cancellationToken)
    {
        if (_unrenewedSince is not { } since)
        {
            try
            {
                await _lease.RenewAsync(cancellationToken: cancellationToken);
            }
            catch (RequestFailedException e) when (e.Status is 404 or 409 or 412)
            {
                // Taken by another tool after it lapsed, broken, or the marker deleted: gone for good.
                Lose($"storage refused to renew it ({e.Status}: {FailureText.FirstLine(e.Message)})");
            }

            return;
        }

        var unchanged = new RequestConditions { IfMatch = _written };
        try
        {
            await _lease.RenewAsync(unchanged, cancellationToken);
        }
        catch (RequestFailedException e) when (e.Status is 404 or 409 or 412)
        {
            if (await TakenMeanwhileAsync(since, cancellationToken) is { } takenBy)
            {
                Lose(takenBy);
                return;
            }

            // Lapsed, and nobody took it: take it again, with the same lease id, while the marker is still as written.
            try
            {
                await _lease.AcquireAsync(Duration, unchanged, cancellationToken);
            }
            catch (RequestFailedException again) when (again.Status is 409 or 412)
            {
                Lose(await TakenMeanwhileAsync(since, cancellationToken)
                     ?? $"storage refused to take it again after the outage ({again.Status}: {FailureText.FirstLine(again.Message)})");
                return;
            }
        }

        _unrenewedSince = null;
        _outage.Answered();
    }

    /// <summary>Who took the store while storage did not answer this tool, or null if the marker is as this tool wrote it and unleased.</summary>
    private async Task<string?> TakenMeanwhileAsync(DateTimeOffset since, CancellationToken cancellationToken)
    {
        _outage.Answered();
        BlobProperties marker;
        try
        {
            marker = (await _marker.GetPropertiesAsync(cancellationToken: cancellationToken)).Value;
        }
        catch (RequestFailedException e) when (e.Status == 404)
        {
            return Meanwhile(since, "the marker blob was deleted");
        }

        if (marker.ETag != _written)
        {
            var holder = LeaseHolder.From(marker.Metadata) ?? LeaseHolder.LastFrom(marker.Metadata);
            return Meanwhile(since, $"{holder?.Describe() ?? "a tool that has not said who it is"} took the store");
        }

        return marker.LeaseState switch
        {
            LeaseState.Available or LeaseState.Expired => null,
            LeaseState.Broken or LeaseState.Breaking => Meanwhile(since, "another tool broke the lease"),
            _ => Meanwhile(since, "another tool, which has not said who it is yet, holds the lease"),
        };
    }

    private static string Meanwhile(DateTimeOffset since, string what) =>
        string.Create(CultureInfo.InvariantCulture, $"while storage did not answer this tool (from {since:HH:mm:ss} UTC), {what}");

    private void Lose(string because)
    {
        LostBecause = string.Create(CultureInfo.InvariantCulture, $"{because} at {DateTimeOffset.UtcNow:HH:mm:ss} UTC");
        _lost.Cancel();
    }

    private LoadToolException LostException(Exception? inner = null) => new(
        $"Lost the hold on storage at {_endpoint}: {LostBecause}. Another burst may have shared the store, so this one has no result.",
        null, ExitCodes.SharedStore, inner);
}
