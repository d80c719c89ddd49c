using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Store;

namespace OrderDistribution.LoadTool.Watching;

/// <summary>
/// Waits until every expected valid order is a blob in one of the outboxes, or the time is up, costing the store
/// as little as it can. An outbox is listed by name prefix (an order's blob is named after its id): after each listing
/// the prefix is replaced by the cut through its digits that costs the store least, calls and names already seen
/// together (<see cref="ListingPlan"/>), and a prefix whose orders are all in is never listed again. Looks list names
/// only and count what is new; each blob's stored time is read once, at the end, in one listing of each outbox whole
/// with metadata, which the report is made of. Looks are paced by <see cref="WatchPacing"/>, and never come closer
/// than the last look took, so that a store slowed down by the burst is asked less, not more; a storage outage (no
/// answer, refused, reset) is waited out until the watch's own timeout, told once when it begins and once when it ends.
/// A look costs the tool the names it lists, not the orders expected. A listing that is merely slow never ends the
/// watch with an error: at the timeout it reports what is still missing. A blob of another burst (its name tells its
/// burst, <see cref="BurstId"/>) ends the watch without a result: met in a look, or in the last listing, which lists
/// each outbox whole.
/// </summary>
public sealed class OutboxWatcher(IOutboxReader storage, WatchPacing pacing, TimeProvider? clock = null)
{
    /// <summary>
    /// What a listing call costs the store at least, in names listed: the request itself. Azurite also scans every blob
    /// it holds on each call (docs/load-tool.md, "Watching at scale"), so a call costs more the more is stored.
    /// </summary>
    public const int CallCost = 100;

    /// <summary>Stored blobs per name's worth of a call's cost.</summary>
    public const int StoredPerCallName = 50;

    private readonly TimeProvider _clock = clock ?? TimeProvider.System;

    /// <summary>
    /// First wait after an outage's first failed listing; doubles up to <see cref="OutageMaxRetryDelay"/>.
    /// </summary>
    public TimeSpan OutageRetryDelay { get; init; } = TimeSpan.FromSeconds(1);

    public TimeSpan OutageMaxRetryDelay { get; init; } = TimeSpan.FromSeconds(4);

    /// <summary>
    /// Names a page of the last listing holds at most. With metadata a name takes about twice the bytes, and the blob
    /// client holds a page's whole response and its XML tree at once: a smaller page lowers the tool's peak for a few
    /// more calls (docs/load-tool.md, "Watching at scale").
    /// </summary>
    public int FinalPageSize { get; init; } = 1_000;

    /// <summary>
    /// Names a page of a look holds at most. The blob client holds a page's whole response and its XML tree at once,
    /// so a page of 1,000 rather than the service's 5,000 keeps the tool's peak lower at a few more calls for a prefix
    /// listed whole, which <see cref="ListingPlan"/> counts (docs/load-tool.md, "Watching at scale").
    /// </summary>
    public int LookPageSize { get; init; } = 1_000;

    /// <summary>How long the last listing, with the stored times, may take past the watch's timeout.</summary>
    public TimeSpan FinalListingBudget { get; init; } = TimeSpan.FromSeconds(30);

    /// <param name="stored">Told the number of orders stored after every page listed, from the first one on.</param>
    /// <param name="outages">Told one line when a storage outage begins (the watch's or the lease's), and one when it
    /// ends.</param>
    /// <exception cref="LoadToolException">Storage stayed unreachable until the timeout, or another burst's blobs were
    /// met.</exception>
    public async Task<WatchReport> WatchAsync(
        WatchExpectation expected, DateTimeOffset scheduledAt, TimeSpan timeout,
        IProgress<int>? stored, IProgress<string>? outages, CancellationToken cancellationToken)
    {
        var outage = storage.Outage ?? new StoreOutage(storage.Endpoint, _clock);
        var listening = outage.Listener;
        outage.Listener = outages;
        try
        {
            var retries = new OutageRetries(
                storage, outage, _clock, OutageRetryDelay, OutageMaxRetryDelay, cancellationToken);
            return await WatchAsync(expected, scheduledAt, timeout, stored, retries, cancellationToken);
        }
        finally
        {
            outage.Listener = listening;
        }
    }

    private async Task<WatchReport> WatchAsync(
        WatchExpectation expected, DateTimeOffset scheduledAt, TimeSpan timeout, IProgress<int>? stored,
        OutageRetries retries, CancellationToken cancellationToken)
    {
        var deadline = _clock.GetUtcNow() + timeout;
        var tally = new WatchTally(expected, storage.Outboxes);
        var pending = storage.Outboxes.ToDictionary(o => o, _ => new List<string> { "" }, StringComparer.Ordinal);
        var wait = pacing.MinInterval / 2;
        var storedBefore = 0;
        var calls = 0;
        var names = 0L;
        while (true)
        {
            var lookBegan = _clock.GetUtcNow();
            var waitedOut = new OutageWait();
            foreach (var outbox in storage.Outboxes)
            {
                var next = new List<string>();
                foreach (var prefix in pending[outbox])
                {
                    if (_clock.GetUtcNow() >= deadline)
                    {
                        next.Add(prefix);
                        continue;
                    }

                    var listed = 0;
                    string? continuation = null;
                    do
                    {
                        var page = await retries.PageAsync(
                            outbox, prefix, continuation, LookPageSize, storedTimes: false, deadline,
                            cancellationToken, waitedOut);
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
                    next.AddRange(tally.NextPrefixes(outbox, prefix,
                        Math.Max(CallCost, tally.Stored / StoredPerCallName), LookPageSize));
                }

                pending[outbox] = next;
            }

            // After a whole look, so that the line names what each outbox holds of other bursts.
            ThrowIfOtherBurst(tally, expected.Burst);
            stored?.Report(tally.Stored);
            var now = _clock.GetUtcNow();
            if (tally.Complete || now >= deadline)
            {
                return await FinalReportAsync(tally, scheduledAt, calls, names, deadline, retries, cancellationToken);
            }

            wait = pacing.Next(wait, storedBefore, tally.Stored, tally.Expected, tally.RatePerSecond);
            storedBefore = tally.Stored;
            // A store that took long to answer is busy: the next look waits at least as long as this one took. The time
            // spent waiting out an outage is not the store's pace: counted, the look after an outage would wait as long
            // as the outage lasted.
            var took = now - lookBegan - waitedOut.Total;
            var pause = wait > took ? wait : took;
            await Task.Delay(pause < deadline - now ? pause : deadline - now, _clock, cancellationToken);
        }
    }

    /// <summary>
    /// The report, made of one listing of each outbox whole with the stored times: each blob's stored time is read
    /// once, and whatever the outboxes hold is counted, another burst's blobs beside this one's names and a copy in the
    /// other outbox that came after its prefix was done. Should storage not answer it once the watch timed out, the
    /// report is the looks' (Last-Modified for the stored times, which the output says).
    /// </summary>
    /// <exception cref="LoadToolException">Another burst's blobs are there, or no answer for a complete
    /// burst.</exception>
    private async Task<WatchReport> FinalReportAsync(
        WatchTally tally, DateTimeOffset scheduledAt, int calls, long names, DateTimeOffset deadline,
        OutageRetries retries, CancellationToken cancellationToken)
    {
        // The watch's own timeout may have come with the last order; the last listing still gets its own short budget.
        var budget = _clock.GetUtcNow() + FinalListingBudget;
        var until = deadline > budget ? deadline : budget;
        // The looks' report is needed only if the listing fails short of a complete burst; the tally starts over.
        var looks = tally.Complete ? null : tally.Report(scheduledAt, calls, names);
        tally.Restart();
        var finalCalls = 0;
        var finalNames = 0L;
        foreach (var outbox in storage.Outboxes)
        {
            string? continuation = null;
            do
            {
                OutboxPage? page;
                try
                {
                    page = await retries.PageAsync(
                        outbox, "", continuation, FinalPageSize, storedTimes: true, until, cancellationToken);
                }
                catch (LoadToolException) when (looks is not null)
                {
                    page = null;
                }

                if (page is null)
                {
                    return looks ?? throw new LoadToolException(
                        $"Storage at {storage.Endpoint} did not answer the listing of {outbox} with the stored times.",
                        "Run watch again: every order of this burst is in, and the listing takes seconds.",
                        ExitCodes.Unreachable);
                }

                finalCalls++;
                finalNames += page.Blobs.Count;
                foreach (var blob in page.Blobs)
                {
                    tally.Add(blob);
                }

                continuation = page.Continuation;
            }
            while (continuation is not null);
        }

        ThrowIfOtherBurst(tally, tally.Burst);
        return tally.Report(scheduledAt, calls, names) with
        {
            FinalListingCalls = finalCalls,
            FinalNamesListed = finalNames,
        };
    }

    private static void ThrowIfOtherBurst(WatchTally tally, BurstId burst)
    {
        if (tally.MetOtherBurst)
        {
            throw new LoadToolException(
                $"The outboxes hold blobs of another burst besides burst {burst}'s ({tally.OtherBursts()}): it " +
                "shared the store, so this burst has no exact result.",
                "Clear the outboxes and run the burst again while no other runs (order-load run does both).",
                ExitCodes.SharedStore);
        }
    }
}
