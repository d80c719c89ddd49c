using System.Globalization;
using OrderDistribution.Contracts;
using OrderDistribution.Storage;
using Polly;

namespace OrderDistribution.LoadTool;

/// <summary>The valid orders a watch waits for, each with the outbox its delivery sends it to, and the poison it never waits for.</summary>
public sealed class WatchExpectation
{
    private WatchExpectation(IReadOnlyDictionary<long, string?> outboxOf, IReadOnlySet<long> poison)
    {
        OutboxOf = outboxOf;
        Poison = poison;
    }

    /// <summary>Valid order id → the outbox it belongs in (null: any).</summary>
    public IReadOnlyDictionary<long, string?> OutboxOf { get; }

    public IReadOnlySet<long> Poison { get; }

    public static string OutboxFor(Delivery delivery) => OrderTopology.OutboxOf(OrderTopology.InstanceOf(delivery));

    public static WatchExpectation For(OrderSet set) => new(
        set.Orders.ToDictionary(o => o.OrderId, o => (string?)OutboxFor(o.Delivery)),
        set.Poison.Select(p => p.Id).ToHashSet());

    /// <summary>Only ids known: every outbox is listed until the end.</summary>
    public static WatchExpectation ForIds(IEnumerable<long> ids) =>
        new(ids.Distinct().ToDictionary(id => id, _ => (string?)null), new HashSet<long>());
}

/// <summary>
/// When to look again. The stored times come from the blobs themselves, so looking less often never changes the
/// measured cycle time, only when the watch notices the end: looks back off while nothing changes and otherwise
/// aim at the projected finish, between <see cref="MinInterval"/> and <see cref="MaxInterval"/>.
/// </summary>
public sealed record WatchPacing(TimeSpan MinInterval, TimeSpan MaxInterval)
{
    public static readonly WatchPacing Default = new(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(15));

    /// <summary>Looks at a fixed rate, as <c>--poll</c> did before.</summary>
    public static WatchPacing Fixed(TimeSpan interval) => new(interval, interval);

    /// <param name="previous">The last wait.</param>
    /// <param name="ratePerSecond">Orders stored per second so far, by their own stored times.</param>
    public TimeSpan Next(TimeSpan previous, int storedBefore, int storedNow, int expected, double? ratePerSecond)
    {
        if (storedNow == storedBefore)
        {
            return Clamp(previous * 2);
        }

        return ratePerSecond is > 0 and var rate
            ? Clamp(TimeSpan.FromSeconds(Math.Min((expected - storedNow) / rate, MaxInterval.TotalSeconds)))
            : MinInterval;
    }

    private TimeSpan Clamp(TimeSpan wait) => wait < MinInterval ? MinInterval : wait > MaxInterval ? MaxInterval : wait;
}

/// <summary>Time for the watcher; tests replace it to play an arrival curve without waiting.</summary>
public class WatchClock
{
    public static readonly WatchClock System = new();

    public virtual DateTimeOffset UtcNow => DateTimeOffset.UtcNow;

    public virtual Task DelayAsync(TimeSpan delay, CancellationToken cancellationToken) => Task.Delay(delay, cancellationToken);
}

/// <summary>
/// Waits until every expected valid order is a blob in one of the outboxes, or the time is up, costing the store
/// as little as it can: it lists an outbox only until all the orders that belong there are in it, paces its looks
/// by <see cref="WatchPacing"/>, and waits a storage outage out (retrying until the watch's own timeout).
/// </summary>
public sealed class OutboxWatcher(IOutboxReader storage, WatchPacing pacing, WatchClock? clock = null)
{
    private readonly WatchClock _clock = clock ?? WatchClock.System;

    /// <summary>A fixed poll: <paramref name="pollInterval"/> between looks.</summary>
    public OutboxWatcher(IOutboxReader storage, TimeSpan pollInterval)
        : this(storage, WatchPacing.Fixed(pollInterval))
    {
    }

    /// <summary>First wait after an outage's first failed listing; doubles up to <see cref="OutageMaxRetryDelay"/>.</summary>
    public TimeSpan OutageRetryDelay { get; init; } = TimeSpan.FromSeconds(1);

    public TimeSpan OutageMaxRetryDelay { get; init; } = TimeSpan.FromSeconds(4);

    public Task<WatchReport> WatchAsync(
        IReadOnlyCollection<long> expected, DateTimeOffset scheduledAt, TimeSpan timeout,
        IProgress<int>? stored, CancellationToken cancellationToken) =>
        WatchAsync(WatchExpectation.ForIds(expected), scheduledAt, timeout, stored, null, cancellationToken);

    /// <param name="status">Told what the watch waits for besides orders (a storage outage), and null when that is over.</param>
    /// <exception cref="LoadToolException">Storage stayed unreachable until the timeout.</exception>
    public async Task<WatchReport> WatchAsync(
        WatchExpectation expected, DateTimeOffset scheduledAt, TimeSpan timeout,
        IProgress<int>? stored, IProgress<string?>? status, CancellationToken cancellationToken)
    {
        var deadline = _clock.UtcNow + timeout;
        var seen = storage.Outboxes.ToDictionary(c => c, _ => (IReadOnlyList<OutboxBlob>)[]);
        var complete = new HashSet<string>();
        var wait = pacing.MinInterval / 2;
        var storedBefore = 0;
        var calls = 0;
        var names = 0L;
        while (true)
        {
            foreach (var outbox in storage.Outboxes.Where(c => !complete.Contains(c)))
            {
                seen[outbox] = await ListThroughOutagesAsync(outbox, deadline, status, cancellationToken);
                calls++;
                names += seen[outbox].Count;
                if (IsComplete(outbox, expected, seen[outbox]))
                {
                    complete.Add(outbox);
                }
            }

            var report = Evaluate(expected, scheduledAt, seen.Values.SelectMany(b => b).ToList()) with { ListingCalls = calls, NamesListed = names };
            stored?.Report(report.Stored);
            var now = _clock.UtcNow;
            if (report.Complete || now >= deadline)
            {
                return report;
            }

            wait = pacing.Next(wait, storedBefore, report.Stored, report.Expected, RateOf(report.StoredTimes));
            storedBefore = report.Stored;
            await _clock.DelayAsync(wait < deadline - now ? wait : deadline - now, cancellationToken);
        }
    }

    public WatchReport Evaluate(IReadOnlyCollection<long> expected, DateTimeOffset scheduledAt, IReadOnlyList<OutboxBlob> blobs) =>
        Evaluate(WatchExpectation.ForIds(expected), scheduledAt, blobs);

    public WatchReport Evaluate(WatchExpectation expected, DateTimeOffset scheduledAt, IReadOnlyList<OutboxBlob> blobs)
    {
        var named = blobs.Select(b => (Blob: b, Id: OrderBlob.OrderIdOf(b.Name))).Where(b => b.Id is not null).ToList();
        var stored = named.Where(b => expected.OutboxOf.ContainsKey(b.Id!.Value)).ToList();
        var storedIds = stored.GroupBy(b => b.Id!.Value).ToList();
        return new WatchReport(
            expected.OutboxOf.Count,
            storage.Outboxes.ToDictionary(c => c, c => stored.Count(b => b.Blob.Container == c)),
            expected.OutboxOf.Keys.Except(storedIds.Select(g => g.Key)).Order().ToList(),
            storedIds.Where(g => g.Count() > 1).Select(g => g.Key).Order().ToList(),
            scheduledAt,
            stored.Count > 0 ? stored.Max(b => b.Blob.StoredOrModified) : null)
        {
            PoisonExpected = expected.Poison.Count,
            PoisonStored = named.Where(b => expected.Poison.Contains(b.Id!.Value)).Select(b => b.Id!.Value).Distinct().Order().ToList(),
            StoredTimes = storedIds.Select(g => g.Min(b => b.Blob.StoredOrModified)).Order().ToList(),
            StoredAtFromMetadata = stored.All(b => b.Blob.StoredAt is not null),
        };
    }

    /// <summary>Orders per second by their own stored times: independent of when the watch looked.</summary>
    private static double? RateOf(IReadOnlyList<DateTimeOffset> storedTimes) =>
        storedTimes.Count >= 2 && (storedTimes[^1] - storedTimes[0]).TotalSeconds is > 0.2 and var span
            ? (storedTimes.Count - 1) / span
            : null;

    /// <summary>Whether every valid order that belongs in <paramref name="outbox"/> is in it (never, when the outboxes are unknown).</summary>
    private static bool IsComplete(string outbox, WatchExpectation expected, IReadOnlyList<OutboxBlob> blobs)
    {
        if (expected.OutboxOf.Values.Any(v => v is null))
        {
            return false;
        }

        var present = blobs.Select(b => OrderBlob.OrderIdOf(b.Name) ?? 0).ToHashSet();
        return expected.OutboxOf.Where(e => e.Value == outbox).All(e => present.Contains(e.Key));
    }

    private async Task<IReadOnlyList<OutboxBlob>> ListThroughOutagesAsync(
        string outbox, DateTimeOffset deadline, IProgress<string?>? status, CancellationToken cancellationToken)
    {
        DateTimeOffset? outageSince = null;
        var budget = deadline - _clock.UtcNow;
        var pipeline = new ResiliencePipelineBuilder()
            .AddTimeout(budget > TimeSpan.FromSeconds(1) ? budget : TimeSpan.FromSeconds(1))
            .AddRetry(new Polly.Retry.RetryStrategyOptions
            {
                ShouldHandle = new PredicateBuilder().Handle<Exception>(StorageFailure.IsTransient),
                MaxRetryAttempts = int.MaxValue,
                Delay = OutageRetryDelay,
                MaxDelay = OutageMaxRetryDelay,
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,
                OnRetry = args =>
                {
                    outageSince ??= _clock.UtcNow;
                    status?.Report(string.Create(CultureInfo.InvariantCulture,
                        $"storage at {storage.Endpoint} not reachable since {outageSince:HH:mm:ss} ({FailureText.Reason(args.Outcome.Exception!)}), retrying"));
                    return default;
                },
            })
            .Build();
        try
        {
            var blobs = await pipeline.ExecuteAsync(async ct => await storage.ListAsync(outbox, ct), cancellationToken);
            if (outageSince is not null)
            {
                status?.Report(null);
            }

            return blobs;
        }
        catch (Exception e) when (e is Polly.Timeout.TimeoutRejectedException || (StorageFailure.IsTransient(e) && !cancellationToken.IsCancellationRequested))
        {
            throw new LoadToolException(
                $"Storage at {storage.Endpoint} did not answer listing {outbox} until the watch's timeout: {FailureText.Reason(e)}.",
                "Start Azurite and the trio with scripts/run-local.sh (or bring the account back), then run watch again; the orders stored so far stay.",
                ExitCodes.Unreachable, e);
        }
    }
}
