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
public sealed class OrderUploads(int capacity = 10_000)
{
    private readonly ConcurrentDictionary<string, Task> _running = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, byte> _storedLate = new(StringComparer.Ordinal);
    private readonly ConcurrentQueue<string> _lateInOrder = new();

    /// <summary>The upload of <paramref name="blobName"/> that is still running, if one is.</summary>
    public Task? Running(string blobName) => _running.GetValueOrDefault(blobName);

    /// <returns>Whether an upload its delivery stopped waiting for stored the blob; it is forgotten then.</returns>
    public bool TakeStoredLate(string blobName) => _storedLate.TryRemove(blobName, out _);

    /// <summary>Runs <paramref name="upload"/>, known as running until it ends.</summary>
    /// <param name="deliveryLeft">Whether the delivery stopped waiting before the upload stored the blob (asked once,
    /// when it did).</param>
    public async Task TrackAsync(string blobName, Task upload, Func<bool> deliveryLeft)
    {
        _running[blobName] = upload;
        try
        {
            await upload;
            if (deliveryLeft())
            {
                RememberStoredLate(blobName);
            }
        }
        finally
        {
            _running.TryRemove(KeyValuePair.Create(blobName, upload));
        }
    }

    private void RememberStoredLate(string blobName)
    {
        if (_storedLate.TryAdd(blobName, 0))
        {
            _lateInOrder.Enqueue(blobName);
        }

        while (_lateInOrder.Count > capacity && _lateInOrder.TryDequeue(out var oldest))
        {
            _storedLate.TryRemove(oldest, out _);
        }
    }
}
