using Azure;
using Azure.Identity;
using Azure.Storage.Blobs;

namespace OrderDistribution.LoadTool.Scheduling;

/// <summary>
/// How far this machine's clock is from a service's, read from the service's HTTP <c>Date</c> header over a few
/// round trips. The Azure burst is scheduled in the service's time, so that its start (the scheduled instant) and
/// its end (the receivers' stored times, Application Insights) come from one clock: Azure's.
/// </summary>
/// <remarks>
/// A <c>Date</c> header has whole seconds: the service stamped it at some instant of [Date, Date + 1 s) while this
/// machine's clock read between sending and receiving. Each round trip bounds the offset that way; the bounds of
/// round trips spread over a second narrow each other to well under a second.
/// </remarks>
/// <param name="serviceDate">
/// One request to the service; its answer's <c>Date</c> header (null when it had none).
/// </param>
/// <param name="localClock">This machine's clock.</param>
/// <param name="spacing">The wait between round trips, so that they fall at different fractions of a second.</param>
public sealed class ServiceClock(
    Func<CancellationToken, Task<DateTimeOffset?>> serviceDate, TimeProvider localClock, TimeSpan spacing)
{
    public const int RoundTrips = 5;

    private static readonly TimeSpan DateResolution = TimeSpan.FromSeconds(1);

    /// <summary>The storage service's clock, read from a blob container's properties (a HEAD request).</summary>
    /// <param name="localClock">This machine's clock; the system's unless given.</param>
    public static ServiceClock OfContainer(BlobContainerClient container, TimeProvider? localClock = null) =>
        new(async ct => (await container.GetPropertiesAsync(cancellationToken: ct)).GetRawResponse().Headers.Date,
            localClock ?? TimeProvider.System, TimeSpan.FromMilliseconds(230));

    /// <exception cref="LoadToolException">
    /// The service could not be reached, refused the request, or sent no Date.
    /// </exception>
    public async Task<ClockSkew> MeasureAsync(CancellationToken cancellationToken)
    {
        var low = TimeSpan.MinValue;
        var high = TimeSpan.MaxValue;
        var fastest = (RoundTrip: TimeSpan.MaxValue, Offset: TimeSpan.Zero);
        for (var i = 0; i < RoundTrips; i++)
        {
            if (i > 0)
            {
                await Task.Delay(spacing, localClock, cancellationToken);
            }

            var sent = localClock.GetUtcNow();
            var date = await ReadDateAsync(cancellationToken);
            var received = localClock.GetUtcNow();

            low = Max(low, date - received);
            high = Min(high, date + DateResolution - sent);
            var roundTrip = received - sent;
            if (roundTrip < fastest.RoundTrip)
            {
                fastest = (roundTrip, date + DateResolution / 2 - (sent + roundTrip / 2));
            }
        }

        // Bounds that do not meet mean the answers disagree (another front end, a clock step): keep the fastest
        // round trip's own estimate, with its own half second and half round trip of doubt.
        return low <= high
            ? new ClockSkew(low + (high - low) / 2, (high - low) / 2)
            : new ClockSkew(fastest.Offset, DateResolution / 2 + fastest.RoundTrip / 2);
    }

    private async Task<DateTimeOffset> ReadDateAsync(CancellationToken cancellationToken)
    {
        try
        {
            return await serviceDate(cancellationToken) ?? throw new LoadToolException(
                "Storage answered without a Date header, so this machine's clock cannot be compared with Azure's.",
                "Schedule against an Azure storage account (--storage-account-url).", ExitCodes.Unexpected);
        }
        catch (Exception e) when (e is RequestFailedException or HttpRequestException or AuthenticationFailedException
                                      or CredentialUnavailableException)
        {
            throw new LoadToolException(
                $"Could not read storage's clock (its Date header): {FailureText.Reason(e)}.",
                "Check that storage is reachable and that you are signed in ('az login'), then schedule again.",
                ExitCodes.Unreachable, e);
        }
    }

    private static TimeSpan Max(TimeSpan a, TimeSpan b) => a > b ? a : b;

    private static TimeSpan Min(TimeSpan a, TimeSpan b) => a < b ? a : b;
}
