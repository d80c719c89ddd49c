using System.Globalization;
using OrderDistribution.LoadTool.Store;
using Polly;
using Polly.Retry;

namespace OrderDistribution.LoadTool.Watching;

/// <summary>
/// One watch's listings through storage outages: a listing that failed for an outage is tried again after a wait that
/// doubles from the first delay up to the longest, until the deadline of the listing, and the last wait ends at that
/// deadline so that the watch ends at its timeout. One retry pipeline serves every listing of the watch.
/// </summary>
internal sealed class OutageRetries
{
    private static readonly ResiliencePropertyKey<Listing> ListingKey = new(nameof(Listing));

    private readonly IOutboxReader _storage;
    private readonly StoreOutage _outage;
    private readonly TimeProvider _clock;
    private readonly ResiliencePipeline<OutboxPage?> _pipeline;

    /// <param name="cancellationToken">The watch's: once cancelled, nothing is tried again.</param>
    public OutageRetries(IOutboxReader storage, StoreOutage outage, TimeProvider clock, TimeSpan firstDelay,
        TimeSpan longestDelay, CancellationToken cancellationToken)
    {
        (_storage, _outage, _clock) = (storage, outage, clock);
        _pipeline = new ResiliencePipelineBuilder<OutboxPage?> { TimeProvider = clock }
            .AddRetry(new RetryStrategyOptions<OutboxPage?>
            {
                ShouldHandle = args => ValueTask.FromResult(args.Outcome.Exception is { } e
                    && !cancellationToken.IsCancellationRequested && StoreOutage.IsOutage(e)
                    && clock.GetUtcNow() < ListingOf(args.Context).Deadline),
                MaxRetryAttempts = int.MaxValue,
                DelayGenerator = args =>
                {
                    var doubled = firstDelay * Math.Pow(2, Math.Min(args.AttemptNumber, 16));
                    var wait = doubled < longestDelay ? doubled : longestDelay;
                    var left = ListingOf(args.Context).Deadline - clock.GetUtcNow();
                    return ValueTask.FromResult<TimeSpan?>(wait < left ? wait : left);
                },
                OnRetry = args =>
                {
                    var listing = ListingOf(args.Context);
                    listing.Since ??= clock.GetUtcNow();
                    listing.Failure = args.Outcome.Exception;
                    outage.Failed(listing.Failure!);
                    return default;
                },
            })
            .Build();
    }

    /// <summary>One page, storage outages waited out until <paramref name="deadline"/>.</summary>
    /// <returns>The page, or null when the deadline came while storage was answering slowly.</returns>
    /// <exception cref="LoadToolException">Storage was unreachable (not merely slow) at the deadline.</exception>
    /// <param name="waitedOut">Told how long the listing waited for storage to answer again, if it did.</param>
    public async Task<OutboxPage?> PageAsync(
        string outbox, string prefix, string? continuation, int pageSize, bool storedTimes, DateTimeOffset deadline,
        CancellationToken cancellationToken, OutageWait? waitedOut = null)
    {
        var listing = new Listing(deadline);
        var context = ResilienceContextPool.Shared.Get(cancellationToken);
        context.Properties.Set(ListingKey, listing);
        OutboxPage? page;
        try
        {
            page = await _pipeline.ExecuteAsync(async ctx =>
            {
                var left = deadline - _clock.GetUtcNow();
                if (left <= TimeSpan.Zero)
                {
                    return null;
                }

                using var untilDeadline = CancellationTokenSource.CreateLinkedTokenSource(ctx.CancellationToken);
                untilDeadline.CancelAfter(left);
                try
                {
                    return await _storage.ListPageAsync(
                        outbox, prefix, continuation, pageSize, storedTimes, untilDeadline.Token);
                }
                catch (OperationCanceledException) when (!ctx.CancellationToken.IsCancellationRequested)
                {
                    // The deadline came in the middle of the listing.
                    return null;
                }
            }, context);
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested && StoreOutage.IsOutage(e))
        {
            listing.Since ??= _clock.GetUtcNow();
            _outage.Failed(e);
            throw Unreachable(outbox, listing.Since.Value, e);
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }

        if (page is null)
        {
            return listing.Since is { } since ? throw Unreachable(outbox, since, listing.Failure!) : null;
        }

        _outage.Answered();
        if (listing.Since is { } began && waitedOut is not null)
        {
            waitedOut.Total += _clock.GetUtcNow() - began;
        }

        return page;
    }

    private static Listing ListingOf(ResilienceContext context) => context.Properties.GetValue(ListingKey, null!);

    private LoadToolException Unreachable(string outbox, DateTimeOffset since, Exception failure) =>
        new(string.Create(CultureInfo.InvariantCulture,
                $"Storage at {_storage.Endpoint} was unreachable from {since:HH:mm:ss} until the watch's timeout, " +
                $"listing {outbox}: {FailureText.Reason(failure)}."),
            "Start Azurite and the trio with scripts/run-local.sh (or bring the account back), then run watch again; " +
            "the orders stored so far stay.",
            ExitCodes.Unreachable, failure);

    /// <summary>One listing's deadline, and when and why its outage began.</summary>
    private sealed class Listing(DateTimeOffset deadline)
    {
        public DateTimeOffset Deadline { get; } = deadline;

        public DateTimeOffset? Since { get; set; }

        public Exception? Failure { get; set; }
    }
}

/// <summary>How long the listings of one look waited out storage outages.</summary>
internal sealed class OutageWait
{
    public TimeSpan Total { get; set; }
}
