using System.Globalization;
using OrderDistribution.Orders;

namespace OrderDistribution.LoadTool;

/// <summary>What the outboxes held when the watch ended.</summary>
public sealed record WatchReport(
    int Expected,
    IReadOnlyDictionary<string, int> CountPerContainer,
    IReadOnlyList<long> Missing,
    IReadOnlyList<long> Duplicated,
    DateTimeOffset ScheduledAt,
    DateTimeOffset? LastStoredAt)
{
    public bool Complete => Missing.Count == 0;

    /// <summary>From scheduling until the last order was a blob (blob times have one-second resolution).</summary>
    public TimeSpan? CycleTime => LastStoredAt - ScheduledAt;

    public double? OrdersPerSecond => CycleTime is { TotalSeconds: > 0 } cycle ? Expected / cycle.TotalSeconds : null;

    public string Summary(string model) => string.Create(CultureInfo.InvariantCulture,
        $"{model}: {Expected - Missing.Count}/{Expected} orders stored, cycle time {CycleTime?.TotalSeconds:0.0} s, " +
        $"{OrdersPerSecond:0} orders/s, {string.Join(", ", CountPerContainer.Select(c => $"{c.Key} {c.Value}"))}, " +
        $"{Missing.Count} missing, {Duplicated.Count} duplicated");
}

/// <summary>Waits until every expected order is a blob in one of the outboxes, or the time is up.</summary>
public sealed class OutboxWatcher(OutboxStorage storage, TimeSpan pollInterval)
{
    public async Task<WatchReport> WatchAsync(
        IReadOnlyCollection<long> expected, DateTimeOffset scheduledAt, TimeSpan timeout,
        IProgress<int>? stored, CancellationToken cancellationToken)
    {
        var deadline = DateTimeOffset.UtcNow + timeout;
        while (true)
        {
            var report = Evaluate(expected, scheduledAt, await storage.ListAsync(cancellationToken));
            stored?.Report(expected.Count - report.Missing.Count);
            if (report.Complete || DateTimeOffset.UtcNow >= deadline)
            {
                return report;
            }

            await Task.Delay(pollInterval, cancellationToken);
        }
    }

    public WatchReport Evaluate(IReadOnlyCollection<long> expected, DateTimeOffset scheduledAt, IReadOnlyList<OutboxBlob> blobs)
    {
        var expectedIds = expected.ToHashSet();
        var stored = blobs
            .Select(b => (Blob: b, Id: OrderBlob.OrderIdOf(b.Name)))
            .Where(b => b.Id is { } id && expectedIds.Contains(id))
            .ToList();
        var storedIds = stored.GroupBy(b => b.Id!.Value).ToList();
        return new WatchReport(
            expectedIds.Count,
            storage.Outboxes.ToDictionary(c => c, c => stored.Count(b => b.Blob.Container == c)),
            expectedIds.Except(storedIds.Select(g => g.Key)).Order().ToList(),
            storedIds.Where(g => g.Count() > 1).Select(g => g.Key).Order().ToList(),
            scheduledAt,
            stored.Count > 0 ? stored.Max(b => b.Blob.LastModified) : null);
    }
}
