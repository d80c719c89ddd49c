using System.Collections.Concurrent;

namespace OrderDistribution.Receiver;

/// <summary>
/// What the process knows of its uploads beyond each delivery's wait. An upload storage finished after its delivery
/// was answered RETRY stored the order all the same: the order's next delivery is answered SUCCESS without a second
/// upload. An upload still running is waited for by the order's next delivery, not sent again. On a store that falls
/// behind, most of the uploads that time out for their delivery are such late ones; sent again, each would cost it
/// the same work twice (docs/architecture.md, "When storage slows down").
/// </summary>
/// <param name="capacity">The most late-stored orders remembered per process; the oldest are forgotten first, and
/// a forgotten one is only uploaded again.</param>
public sealed class OrderUploads(TimeProvider time, int capacity = 10_000)
{
    /// <summary>
    /// How long a late store stands for the order's next delivery. The broker hands an order answered RETRY out again
    /// within seconds (the sidecars' retries are a second or a few apart); past this, the next delivery may be of an
    /// order sent anew after its outbox was emptied, or the redelivery went to another replica, and a record that
    /// outlived it would answer SUCCESS for an order no longer stored. Forgotten, a record costs one upload again.
    /// </summary>
    public static readonly TimeSpan StoredLateFor = TimeSpan.FromMinutes(2);

    private readonly ConcurrentDictionary<string, Task> _running = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, long> _storedLate = new(StringComparer.Ordinal);
    private readonly ConcurrentQueue<string> _lateInOrder = new();

    /// <summary>The upload of <paramref name="blobName"/> that is still running, if one is; it ends once what it
    /// stored late is remembered.</summary>
    public Task? Running(string blobName) => _running.GetValueOrDefault(blobName);

    /// <returns>Whether an upload its delivery stopped waiting for stored the blob within <see
    /// cref="StoredLateFor"/>; it is forgotten then, so one delivery spends it.</returns>
    public bool TakeStoredLate(string blobName) =>
        _storedLate.TryRemove(blobName, out var storedAt) && time.GetElapsedTime(storedAt) <= StoredLateFor;

    /// <summary>Runs <paramref name="upload"/>, known as running until it ends.</summary>
    /// <param name="deliveryLeft">Whether the delivery stopped waiting before the upload stored the blob (asked once,
    /// when it did).</param>
    public async Task TrackAsync(string blobName, Task upload, Func<bool> deliveryLeft)
    {
        var tracked = RememberIfLateAsync(blobName, upload, deliveryLeft);
        _running[blobName] = tracked;
        try
        {
            await tracked;
        }
        finally
        {
            _running.TryRemove(KeyValuePair.Create(blobName, tracked));
        }
    }

    private async Task RememberIfLateAsync(string blobName, Task upload, Func<bool> deliveryLeft)
    {
        await upload;
        if (deliveryLeft())
        {
            RememberStoredLate(blobName);
        }
    }

    private void RememberStoredLate(string blobName)
    {
        var storedAt = time.GetTimestamp();
        if (_storedLate.TryAdd(blobName, storedAt))
        {
            _lateInOrder.Enqueue(blobName);
        }
        else
        {
            _storedLate[blobName] = storedAt;
        }

        while (_lateInOrder.Count > capacity && _lateInOrder.TryDequeue(out var oldest))
        {
            _storedLate.TryRemove(oldest, out _);
        }
    }
}
