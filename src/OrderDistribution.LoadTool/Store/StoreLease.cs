using System.Globalization;
using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Azure.Storage.Blobs.Specialized;
using OrderDistribution.Contracts;

namespace OrderDistribution.LoadTool.Store;

/// <summary>
/// One burst at a time per store: a blob lease on a marker blob in the tool's own container, the same calls in Azure
/// and Azurite. The holder is the marker's metadata, so that a tool refused can say who holds the store. Renewed four
/// times per <see cref="Duration"/> (<see cref="LeaseRenewal"/>), so a killed tool lets go within it. A renewal that
/// storage refuses cancels <see cref="Lost"/>: the burst it held for is no measurement; one unanswered is waited out.
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
    private readonly CancellationTokenSource _lost = new();
    private readonly LeaseRenewal _renewal;
    private readonly TimeProvider _time;

    private StoreLease(
        BlobClient marker, BlobLeaseClient lease, string endpoint, LeaseHolder holder, TimeSpan duration,
        StoreOutage outage, TimeProvider time)
    {
        _marker = marker;
        _lease = lease;
        _endpoint = endpoint;
        _time = time;
        _renewal = new LeaseRenewal(marker, lease, duration, outage, time, Lose, _lost.Token);
        Holder = holder;
        Duration = duration;
    }

    public LeaseHolder Holder { get; }

    public TimeSpan Duration { get; }

    /// <summary>Cancelled once the lease is lost for good; <see cref="LostBecause"/> says why.</summary>
    public CancellationToken Lost => _lost.Token;

    public string? LostBecause { get; private set; }

    /// <summary>Takes the store for <paramref name="holder"/>, or refuses at once if another tool holds it.</summary>
    /// <exception cref="LoadToolException">
    /// Another tool holds the store (<see cref="ExitCodes.StoreBusy"/>).
    /// </exception>
    /// <exception cref="RequestFailedException">Storage failed or refused the tool; the caller names it.</exception>
    /// <param name="outage">Told of renewals that get no answer, and of the first answer after them.</param>
    /// <param name="time">The clock of the renewals and of the waits while the lease is taken or let go.</param>
    public static async Task<StoreLease> TakeAsync(
        BlobServiceClient service, LeaseHolder holder, TimeSpan duration, StoreOutage outage, TimeProvider time,
        CancellationToken cancellationToken)
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
            throw await RefusedAsync(marker, endpoint, time, cancellationToken);
        }

        var taken = new StoreLease(marker, lease, endpoint, holder, duration, outage, time);
        try
        {
            var conditions = new BlobRequestConditions { LeaseId = lease.LeaseId };
            taken._renewal.Written =
                (await marker.SetMetadataAsync(holder.Metadata(), conditions, cancellationToken)).Value.ETag;
        }
        catch
        {
            await taken.DisposeAsync();
            throw;
        }

        taken._renewal.Start();
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
        try
        {
            await _renewal.ConfirmAsync(cancellationToken);
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested
                                  && (e is OperationCanceledException || StoreOutage.IsOutage(e)))
        {
            throw new LoadToolException(
                $"Storage at {_endpoint} did not answer whether another burst took the store while it was away: " +
                $"{FailureText.Reason(e)}.",
                "Run the burst again once storage answers.", ExitCodes.Unreachable, e);
        }

        ThrowIfLost();
    }

    /// <summary>
    /// Runs <paramref name="work"/> while the store is held: it is cancelled when the lease is lost, and then ends in
    /// the one line that says so, whatever it was doing.
    /// </summary>
    /// <exception cref="LoadToolException">
    /// The lease was lost meanwhile (<see cref="ExitCodes.SharedStore"/>).
    /// </exception>
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

    /// <summary>Stops renewing and lets go of the store, emptying its metadata; a failure leaves it to lapse.</summary>
    public async ValueTask DisposeAsync()
    {
        await _renewal.DisposeAsync();
        if (!_lost.IsCancellationRequested)
        {
            // Not the caller's token: a cancelled burst still lets go at once.
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10), _time);
            try
            {
                // Who held it stays, under keys that name no holder: a burst that was away meanwhile can say who came.
                var conditions = new BlobRequestConditions { LeaseId = _lease.LeaseId };
                await _marker.SetMetadataAsync(Holder.Released(), conditions, timeout.Token);
                await _lease.ReleaseAsync(cancellationToken: timeout.Token);
            }
            catch (Exception e) when (e is RequestFailedException or OperationCanceledException)
            {
                // The lease lapses on its own within Duration.
            }
        }

        _lost.Dispose();
    }

    private static async Task CreateMarkerAsync(BlobClient marker, CancellationToken cancellationToken)
    {
        try
        {
            var absent = new BlobRequestConditions { IfNoneMatch = ETag.All };
            var options = new BlobUploadOptions { Conditions = absent };
            await marker.UploadAsync(BinaryData.Empty, options, cancellationToken);
        }
        catch (RequestFailedException e) when (e.Status is 409 or 412)
        {
            // Another tool made it first.
        }
    }

    /// <summary>The refusal, naming the holder from the marker's metadata (written just after the lease).</summary>
    private static async Task<LoadToolException> RefusedAsync(
        BlobClient marker, string endpoint, TimeProvider time, CancellationToken cancellationToken)
    {
        LeaseHolder? holder = null;
        for (var attempt = 0; attempt < 3 && holder is null; attempt++)
        {
            if (attempt > 0)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(500), time, cancellationToken);
            }

            var properties = await marker.GetPropertiesAsync(cancellationToken: cancellationToken);
            holder = LeaseHolder.From(properties.Value.Metadata);
        }

        var who = holder?.Describe() ?? "a tool that has not said who it is";
        return new LoadToolException(
            $"Refused: another burst holds storage at {endpoint}: {who}. Nothing was changed; run again once it ends " +
            "(a killed tool lets go within a minute).",
            null, ExitCodes.StoreBusy);
    }

    private void Lose(string because)
    {
        LostBecause = string.Create(CultureInfo.InvariantCulture, $"{because} at {_time.GetUtcNow():HH:mm:ss} UTC");
        _lost.Cancel();
    }

    private LoadToolException LostException(Exception? inner = null) => new(
        $"Lost the hold on storage at {_endpoint}: {LostBecause}. Another burst may have shared the store, so this " +
        "one has no result.",
        null, ExitCodes.SharedStore, inner);
}
