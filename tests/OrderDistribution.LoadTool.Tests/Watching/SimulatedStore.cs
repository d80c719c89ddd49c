using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;

namespace OrderDistribution.LoadTool.Tests.Watching;

/// <summary>
/// Each order appears in its outbox, with its storedat, at its arrival time; every listing is counted, the looks'
/// (names only) apart from those with the stored times.
/// </summary>
internal sealed class SimulatedStore(SimulatedClock clock,
    IEnumerable<(Order Order, DateTimeOffset At)> arrivals) : IOutboxReader
{
    /// <summary>Per outbox, every blob it will hold, in name order (the order a listing returns).</summary>
    private readonly Dictionary<string, OutboxBlob[]> _blobs = arrivals
        .Select(a =>
            new OutboxBlob(WatchExpectation.OutboxFor(a.Order.Delivery), OrderBlob.NameOf(a.Order),
            a.At.AddTicks(-(a.At.Ticks % TimeSpan.TicksPerSecond)), a.At))
        .GroupBy(b => b.Container)
        .ToDictionary(g => g.Key, g => g.OrderBy(b => b.Name, StringComparer.Ordinal).ToArray());

    /// <summary>Listing calls without the stored times, per outbox.</summary>
    public Dictionary<string, int> Calls { get; } = OrderTopology.Outboxes.ToDictionary(c => c, _ => 0);

    public string Endpoint => "simulated";

    public IReadOnlyList<string> Outboxes => OrderTopology.Outboxes;

    /// <summary>Names listed without their stored times.</summary>
    public long NamesListed { get; private set; }

    public long NamesWithStoredTimes { get; private set; }

    /// <summary>The most names a listing without the stored times asked for in one page.</summary>
    public int LargestPage { get; private set; }

    /// <summary>The most names a listing with the stored times asked for in one page.</summary>
    public int LargestPageWithStoredTimes { get; private set; }

    /// <summary>Per outbox, when a listing without the stored times last asked for names of the burst.</summary>
    public Dictionary<string, DateTimeOffset> LastListed { get; } = [];

    /// <summary>
    /// The blobs under the prefix that have arrived by now, a page at a time; the continuation is the last name
    /// returned.
    /// </summary>
    public Task<OutboxPage> ListPageAsync(
        string container, string prefix, string? continuation, int pageSize, bool storedTimes,
        CancellationToken cancellationToken)
    {
        var all = _blobs.GetValueOrDefault(container, []);
        if (!storedTimes)
        {
            Calls[container]++;
            if (all.Any(b => b.Name.StartsWith(prefix, StringComparison.Ordinal)))
            {
                LastListed[container] = clock.GetUtcNow();
            }
        }

        var start = LowerBound(all, continuation is null ? prefix : continuation + "\0");
        var page = new List<OutboxBlob>();
        var i = start;
        for (; i < all.Length && all[i].Name.StartsWith(prefix, StringComparison.Ordinal) && page.Count < pageSize; i++)
        {
            if (all[i].StoredAt <= clock.GetUtcNow())
            {
                page.Add(storedTimes ? all[i] : all[i] with { StoredAt = null });
            }
        }

        NamesListed += storedTimes ? 0 : page.Count;
        NamesWithStoredTimes += storedTimes ? page.Count : 0;
        if (storedTimes)
        {
            LargestPageWithStoredTimes = Math.Max(LargestPageWithStoredTimes, pageSize);
        }
        else
        {
            LargestPage = Math.Max(LargestPage, pageSize);
        }

        var more = i < all.Length && all[i].Name.StartsWith(prefix, StringComparison.Ordinal);
        return Task.FromResult(new OutboxPage(page, more ? all[i - 1].Name : null));
    }

    private static int LowerBound(OutboxBlob[] blobs, string name)
    {
        int low = 0, high = blobs.Length;
        while (low < high)
        {
            var middle = (low + high) / 2;
            if (string.CompareOrdinal(blobs[middle].Name, name) < 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }

        return low;
    }
}
