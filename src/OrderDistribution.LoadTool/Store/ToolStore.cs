using Azure.Identity;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.Storage;

namespace OrderDistribution.LoadTool.Store;

/// <summary>The store a command measures, and how long its hold lasts between renewals.</summary>
/// <param name="options">Where the store is; read when the store is opened, so bad input is named in its turn.</param>
/// <param name="accountUrl">The blob endpoint given for DefaultAzureCredential, if one was.</param>
/// <param name="time">The clock of everything the tool times on this store.</param>
public sealed class ToolStore(Func<StorageOptions> options, Uri? accountUrl, TimeSpan lease, TimeProvider? time = null)
{
    public TimeProvider Time { get; } = time ?? TimeProvider.System;

    /// <exception cref="ArgumentException">The options name no valid store; the message names the option.</exception>
    public StorageOptions Options => options();

    /// <summary>Opens the outboxes' storage and checks, with one call, that it is there.</summary>
    /// <exception cref="LoadToolException">Storage is misconfigured or not reachable.</exception>
    public async Task<OutboxStorage> OpenAsync(CancellationToken ct)
    {
        var storage = OutboxStorage.Open(Options, OrderTopology.Outboxes, Time);
        try
        {
            // The SDK signs in on the first call: this one.
            await storage.EnsureReachableAsync(ct);
        }
        catch (AuthenticationFailedException e)
        {
            throw LoadToolException.SignInFailed(accountUrl?.ToString(), e);
        }

        return storage;
    }

    /// <summary>Takes <paramref name="storage"/> for one burst at a time (<see cref="StoreLease"/>).</summary>
    /// <exception cref="LoadToolException">Another burst holds the store, or storage failed.</exception>
    public Task<StoreLease> HoldAsync(OutboxStorage storage, string command, BurstId? burst, CancellationToken ct) =>
        storage.HoldAsync(LeaseHolder.Now(command, burst, storage.Time), lease, ct);
}
