using System.Collections.Concurrent;
using Azure.Storage.Blobs;
using Microsoft.AspNetCore.Http;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Storage;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Store;

/// <summary>
/// Azure keeps a deleted container's name blocked for about 30 s (409 ContainerBeingDeleted); Azurite does not.
/// A blob endpoint double that answers as Azure does shows clear waiting that out, bounded, with progress.
/// </summary>
public sealed class ContainerReleaseTests
{
    [Fact]
    public async Task Clear_waits_while_azure_still_deletes_the_containers_then_creates_them_again()
    {
        await using var azure = await BlockingBlobEndpointAsync(blockedCreates: 3);
        var storage = new OutboxStorage(Client(azure),
            OrderTopology.Outboxes)
        { ContainerReleaseInterval = TimeSpan.FromMilliseconds(50) };
        var waiting = new ConcurrentQueue<string>();

        await storage.ClearAsync(new SynchronousProgress<string?>(s => waiting.Enqueue(s!)), default);

        Assert.Equal(
            [$"DELETE {WatchExpectation.OutboxFor(Delivery.Express)}",
            $"DELETE {WatchExpectation.OutboxFor(Delivery.Standard)}"],
            azure.Calls.Where(c => c.StartsWith("DELETE", StringComparison.Ordinal)));
        Assert.Equal(3 + 1 + 1, azure.Calls.Count(c => c.StartsWith("PUT", StringComparison.Ordinal)));
        Assert.Equal(3, waiting.Count);
        Assert.All(waiting, w => Assert.Contains("still deletes", w, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Clear_names_a_container_azure_never_releases_within_its_budget_instead_of_waiting_forever()
    {
        await using var azure = await BlockingBlobEndpointAsync(blockedCreates: int.MaxValue);
        var storage = new OutboxStorage(Client(azure), OrderTopology.Outboxes)
        {
            ContainerReleaseInterval = TimeSpan.FromMilliseconds(50),
            ContainerReleaseBudget = TimeSpan.FromSeconds(1),
        };

        var failure = await Assert.ThrowsAsync<LoadToolException>(() => storage.ClearAsync(null, default));

        Assert.True(failure.ExitCode == ExitCodes.Unreachable, $"{failure.Message} {failure.InnerException}");
        Assert.Contains("being deleted", failure.Message, StringComparison.Ordinal);
        Assert.Contains("receivers create a missing outbox", failure.WhatToDo, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task Clear_of_storage_that_is_not_there_names_it_unreachable_while_clearing(bool keepContainers)
    {
        var gone = new StorageOptions { ConnectionString = Azurite.ConnectionStringFor(Azurite.FreePort()) };
        var storage = new OutboxStorage(BlobClientFactory.Create(gone, TimeSpan.FromSeconds(5)), OrderTopology.Outboxes)
        {
            KeepContainers = keepContainers,
        };

        var failure = await Assert.ThrowsAsync<LoadToolException>(() => storage.ClearAsync(null, default));

        Assert.True(failure.ExitCode == ExitCodes.Unreachable, $"{failure.Message} {failure.InnerException}");
        Assert.Contains("while clearing the outboxes", failure.Message, StringComparison.Ordinal);
    }

    /// <summary>
    /// Deletes at once; refuses the first <paramref name="blockedCreates"/> container creations as Azure does while it
    /// deletes.
    /// </summary>
    private static Task<BlobEndpoint> BlockingBlobEndpointAsync(int blockedCreates) =>
        BlobEndpoint.StartAsync(context =>
        {
            context.Response.Headers["x-ms-version"] = "2018-03-28";
            return context.Request.Method switch
            {
                "DELETE" => BlobEndpoint.Ok(context, StatusCodes.Status202Accepted),
                "PUT" when Interlocked.Decrement(ref blockedCreates) >= 0 => BlobEndpoint.Error(context,
                    StatusCodes.Status409Conflict, "ContainerBeingDeleted",
                    "The specified container is being deleted. Try operation later."),
                // Created, or (before the delete) there.
                "PUT" => BlobEndpoint.Ok(context, StatusCodes.Status201Created),
                "GET" or "HEAD" => BlobEndpoint.Ok(context),
                _ => BlobEndpoint.Error(context, StatusCodes.Status404NotFound, "ResourceNotFound", "Not found."),
            };
        });

    private static BlobServiceClient Client(BlobEndpoint endpoint) => BlobClientFactory.Create(
        new StorageOptions { ConnectionString = endpoint.ConnectionString }, OutboxStorage.CallTimeout);
}
