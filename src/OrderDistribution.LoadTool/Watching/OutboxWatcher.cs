using System.Globalization;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.Storage;

namespace OrderDistribution.LoadTool.Watching;

/// <summary>
/// Waits until every expected valid order is a blob in one of the outboxes, or the time is up, costing the store
/// as little as it can. Each blob is read a bounded number of times whatever the burst's size or the number of
/// looks: an outbox is listed by name prefix (an order's blob is named after its id), a prefix that held many
/// names is split past the digits its awaited orders share, and a prefix whose orders are all in is never listed again. Looks
/// are paced by <see cref="WatchPacing"/>; a storage outage is waited out until the watch's own timeout. A listing
/// that is merely slow never ends the watch with an error: at the timeout it reports what is still missing.
/// A blob of another burst (its name tells its burst, <see cref="BurstId"/>) ends the watch without a result: met in a
/// listing, or, once every order is in, by asking each outbox for any name beside this burst's prefix.
/// </summary>
public sealed class OutboxWatcher(IOutboxReader storage, WatchPacing pacing, WatchClock? clock = null)
{
    /// <summary>A prefix whose listing returned more names than this is split, so that no name is listed again and again.</summary>
    public const int SplitAbove = 100;

    private readonly WatchClock _clock = clock ?? WatchClock.System;

    /// <summary>First wait after an outage's first failed listing; doubles up to <see cref="OutageMaxRetryDelay"/>.</summary>
    public TimeSpan OutageRetryDelay { get; init; } = TimeSpan.FromSeconds(1);

    public TimeSpan OutageMaxRetryDelay { get; init; } = TimeSpan.FromSeconds(4);

    /// <summary>How long the check for other bursts may take past the watch's timeout.</summary>
    public TimeSpan CheckBudget { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Calls of the check for other bursts in flight at once.</summary>
    public const int ChecksInFlight = 8;

    /// <param name="stored">Told the number of orders stored after every page listed, from the first one on.</param>
    /// <param name="status">Told what the watch waits for besides orders (a storage outage), and null when that is over.</param>
    /// <exception cref="LoadToolException">Storage stayed unreachable until the timeout, or another burst's blobs were met.</exception>
    public async Task<WatchReport> WatchAsync(
        WatchExpectation expected, DateTimeOffset scheduledAt, TimeSpan timeout,
        IProgress<int>? stored, IProgress<string?>? status, CancellationToken cancellationToken)
    {
        var deadline = _clock.UtcNow + timeout;
        var tally = new WatchTally(expected, storage.Outboxes);
        var pending = storage.Outboxes.ToDictionary(o => o, _ => new List<string> { "" }, StringComparer.Ordinal);
        var wait = pacing.MinInterval / 2;
        var storedBefore = 0;
        var calls = 0;
        var names = 0L;
        while (true)
        {
            foreach (var outbox in storage.Outboxes)
            {
                var next = new List<string>();
                foreach (var prefix in pending[outbox])
                {
                    if (_clock.UtcNow >= deadline)
                    {
                        next.Add(prefix);
                        continue;
                    }

                    var listed = 0;
                    string? continuation = null;
                    do
                    {
                        var page = await PageThroughOutagesAsync(outbox, prefix, continuation, OutboxStorage.PageSize, deadline, status, cancellationToken);
                        if (page is null)
                        {
                            // The timeout came in the middle of a listing: what is not seen by now is missing.
                            break;
                        }

                        calls++;
                        listed += page.Blobs.Count;
                        foreach (var blob in page.Blobs)
                        {
                            tally.Add(blob);
                        }

                        stored?.Report(tally.Stored);
                        continuation = page.Continuation;
                    }
                    while (continuation is not null);

                    names += listed;
                    if (tally.IsComplete(outbox, prefix))
                    {
                        continue;
                    }

                    next.AddRange(listed > SplitAbove ? tally.IncompleteChildren(outbox, prefix) : [prefix]);
                }

                pending[outbox] = next;
            }

            // After a whole look, so that the line names what each outbox holds of other bursts.
            ThrowIfOtherBurst(tally, expected.Burst);
            var report = tally.Report(scheduledAt, calls, names);
            stored?.Report(report.Stored);
            if (report.Complete)
            {
                return report with { OtherBurstChecks = await CheckForOtherBurstsAsync(tally, expected.Burst, deadline, status, cancellationToken) };
            }

            var now = _clock.UtcNow;
            if (now >= deadline)
            {
                return report;
            }

            wait = pacing.Next(wait, storedBefore, report.Stored, report.Expected, RateOf(report.StoredTimes));
            storedBefore = report.Stored;
            await _clock.DelayAsync(wait < deadline - now ? wait : deadline - now, cancellationToken);
        }
    }

    /// <summary>
    /// Asks each outbox, a name at most per call, for names beside <paramref name="burst"/>'s prefix: at each of its digits
    /// the nine others and the shorter ids (59 calls an outbox for a six-digit id). Once the listings are split, they are
    /// all under the burst's own prefix and meet no other burst's names: this is where a late one shows.
    /// </summary>
    /// <returns>The calls made.</returns>
    /// <exception cref="LoadToolException">A name of another burst is there.</exception>
    private async Task<int> CheckForOtherBurstsAsync(
        WatchTally tally, BurstId burst, DateTimeOffset deadline, IProgress<string?>? status, CancellationToken cancellationToken)
    {
        var prefixes = storage.Outboxes.SelectMany(outbox => burst.PrefixesBeside().Select(prefix => (Outbox: outbox, Prefix: prefix))).ToList();
        // The watch's own timeout may have come with the last order; the check still gets its own short budget.
        var until = deadline > _clock.UtcNow + CheckBudget ? deadline : _clock.UtcNow + CheckBudget;
        var pages = new OutboxPage?[prefixes.Count];
        await Parallel.ForAsync(0, prefixes.Count, new ParallelOptions { MaxDegreeOfParallelism = ChecksInFlight, CancellationToken = cancellationToken },
            async (i, ct) => pages[i] = await PageThroughOutagesAsync(prefixes[i].Outbox, prefixes[i].Prefix, null, 1, until, status, ct));
        if (Array.IndexOf(pages, null) is >= 0 and var unanswered)
        {
            throw new LoadToolException(
                $"Storage at {storage.Endpoint} did not answer whether {prefixes[unanswered].Outbox} holds blobs of another burst.",
                "Run watch again: every order of this burst is in, and the check takes a few seconds.", ExitCodes.Unreachable);
        }

        foreach (var blob in pages.SelectMany(page => page!.Blobs))
        {
            tally.Add(blob);
        }

        ThrowIfOtherBurst(tally, burst);
        return prefixes.Count;
    }

    private static void ThrowIfOtherBurst(WatchTally tally, BurstId burst)
    {
        if (tally.MetOtherBurst)
        {
            throw new LoadToolException(
                $"The outboxes hold blobs of another burst besides burst {burst}'s ({tally.OtherBursts()}): it shared the store, so this burst has no exact result.",
                "Clear the outboxes and run the burst again while no other runs (order-load run does both).", ExitCodes.SharedStore);
        }
    }

    /// <summary>Orders per second by their own stored times: independent of when the watch looked.</summary>
    private static double? RateOf(IReadOnlyList<DateTimeOffset> storedTimes) =>
        storedTimes.Count >= 2 && (storedTimes[^1] - storedTimes[0]).TotalSeconds is > 0.2 and var span
            ? (storedTimes.Count - 1) / span
            : null;

    /// <returns>The page, or null when the watch's timeout came while storage was answering slowly.</returns>
    /// <exception cref="LoadToolException">Storage was unreachable (not merely slow) when the timeout came.</exception>
    private async Task<OutboxPage?> PageThroughOutagesAsync(
        string outbox, string prefix, string? continuation, int pageSize, DateTimeOffset deadline, IProgress<string?>? status,
        CancellationToken cancellationToken)
    {
        DateTimeOffset? outageSince = null;
        var delay = OutageRetryDelay;
        while (true)
        {
            using var untilDeadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            var left = deadline - _clock.UtcNow;
            untilDeadline.CancelAfter(left > TimeSpan.Zero ? left : TimeSpan.Zero);
            try
            {
                var page = await storage.ListPageAsync(outbox, prefix, continuation, pageSize, untilDeadline.Token);
                if (outageSince is not null)
                {
                    status?.Report(null);
                }

                return page;
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested && outageSince is null)
            {
                return null;
            }
            catch (Exception e) when (!cancellationToken.IsCancellationRequested && (e is OperationCanceledException || StorageFailure.IsTransient(e)))
            {
                outageSince ??= _clock.UtcNow;
                if (_clock.UtcNow + delay >= deadline)
                {
                    throw new LoadToolException(
                        string.Create(CultureInfo.InvariantCulture,
                            $"Storage at {storage.Endpoint} was unreachable from {outageSince:HH:mm:ss} until the watch's timeout, listing {outbox}: {FailureText.Reason(e)}."),
                        "Start Azurite and the trio with scripts/run-local.sh (or bring the account back), then run watch again; the orders stored so far stay.",
                        ExitCodes.Unreachable, e);
                }

                status?.Report(string.Create(CultureInfo.InvariantCulture,
                    $"storage at {storage.Endpoint} not reachable since {outageSince:HH:mm:ss} ({FailureText.Reason(e)}), retrying"));
                await _clock.DelayAsync(delay, cancellationToken);
                delay = delay * 2 < OutageMaxRetryDelay ? delay * 2 : OutageMaxRetryDelay;
            }
        }
    }
}
