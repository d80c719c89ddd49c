using System.Globalization;
using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Azure.Storage.Blobs.Specialized;

namespace OrderDistribution.LoadTool.Store;

/// <summary>
/// Keeps a <see cref="StoreLease"/> through storage outages. It renews every quarter of the lease; a renewal that gets
/// no answer is waited out, since storage is away and so is any tool that would take the store. Once storage answers,
/// the lease is renewed, or taken again if it lapsed, only while the marker is as this tool wrote it (If-Match); else
/// whoever took the store is named.
/// </summary>
internal sealed class LeaseRenewal(
    BlobClient marker,
    BlobLeaseClient lease,
    TimeSpan duration,
    StoreOutage outage,
    TimeProvider time,
    Action<string> lose,
    CancellationToken lost) : IAsyncDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly SemaphoreSlim _calls = new(1, 1);
    private Task _renewing = Task.CompletedTask;

    /// <summary>When a renewal first went unanswered, until the lease is renewed or taken again.</summary>
    private DateTimeOffset? _unrenewedSince;

    /// <summary>The marker as this tool wrote it: another tool that takes the store writes its own metadata.</summary>
    public ETag Written { get; set; }

    public void Start() => _renewing = Task.Run(RenewAsync, CancellationToken.None);

    /// <summary>If a renewal went unanswered since storage last answered, renews or regains the lease now.</summary>
    /// <exception cref="RequestFailedException">Storage still does not answer.</exception>
    public async Task ConfirmAsync(CancellationToken cancellationToken)
    {
        await _calls.WaitAsync(cancellationToken);
        try
        {
            if (_unrenewedSince is not null && !lost.IsCancellationRequested)
            {
                await RenewOrRegainAsync(cancellationToken);
            }
        }
        finally
        {
            _calls.Release();
        }
    }

    /// <summary>Stops renewing, waiting for a renewal in flight.</summary>
    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _renewing;
        _stop.Dispose();
        _calls.Dispose();
    }

    private async Task RenewAsync()
    {
        var every = duration / 4;
        while (!lost.IsCancellationRequested)
        {
            try
            {
                await Task.Delay(every, time, _stop.Token);
                await _calls.WaitAsync(_stop.Token);
            }
            catch (OperationCanceledException)
            {
                return;
            }

            try
            {
                using var unanswered = new CancellationTokenSource(every, time);
                using var call = CancellationTokenSource.CreateLinkedTokenSource(_stop.Token, unanswered.Token);
                await RenewOrRegainAsync(call.Token);
            }
            catch (Exception) when (_stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e) when (e is OperationCanceledException || StoreOutage.IsOutage(e))
            {
                _unrenewedSince ??= time.GetUtcNow();
                outage.Failed(e);
            }
            catch (Exception e)
            {
                lose($"renewing it failed ({FailureText.Reason(e)})");
            }
            finally
            {
                _calls.Release();
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
                await lease.RenewAsync(cancellationToken: cancellationToken);
            }
            catch (RequestFailedException e) when (e.Status is 404 or 409 or 412)
            {
                // Taken by another tool after it lapsed, broken, or the marker deleted: gone for good.
                lose($"storage refused to renew it ({e.Status}: {FailureText.FirstLine(e.Message)})");
            }

            return;
        }

        var unchanged = new RequestConditions { IfMatch = Written };
        try
        {
            await lease.RenewAsync(unchanged, cancellationToken);
        }
        catch (RequestFailedException e) when (e.Status is 404 or 409 or 412)
        {
            if (await TakenMeanwhileAsync(since, cancellationToken) is { } takenBy)
            {
                lose(takenBy);
                return;
            }

            // Lapsed, and nobody took it: take it again, with the same lease id, while the marker is still as written.
            try
            {
                await lease.AcquireAsync(duration, unchanged, cancellationToken);
            }
            catch (RequestFailedException again) when (again.Status is 409 or 412)
            {
                lose(await TakenMeanwhileAsync(since, cancellationToken)
                     ?? $"storage refused to take it again after the outage ({again.Status}: " +
                     $"{FailureText.FirstLine(again.Message)})");
                return;
            }
        }

        _unrenewedSince = null;
        outage.Answered();
    }

    /// <summary>Who took the store while storage was away; null if the marker is as written and unleased.</summary>
    private async Task<string?> TakenMeanwhileAsync(DateTimeOffset since, CancellationToken cancellationToken)
    {
        outage.Answered();
        BlobProperties properties;
        try
        {
            properties = (await marker.GetPropertiesAsync(cancellationToken: cancellationToken)).Value;
        }
        catch (RequestFailedException e) when (e.Status == 404)
        {
            return Meanwhile(since, "the marker blob was deleted");
        }

        if (properties.ETag != Written)
        {
            var holder = LeaseHolder.From(properties.Metadata) ?? LeaseHolder.LastFrom(properties.Metadata);
            return Meanwhile(since, $"{holder?.Describe() ?? "a tool that has not said who it is"} took the store");
        }

        return properties.LeaseState switch
        {
            LeaseState.Available or LeaseState.Expired => null,
            LeaseState.Broken or LeaseState.Breaking => Meanwhile(since, "another tool broke the lease"),
            _ => Meanwhile(since, "another tool, which has not said who it is yet, holds the lease"),
        };
    }

    private static string Meanwhile(DateTimeOffset since, string what) => string.Create(
        CultureInfo.InvariantCulture, $"while storage did not answer this tool (from {since:HH:mm:ss} UTC), {what}");
}
