using System.Collections.Concurrent;
using Azure.Storage.Blobs;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.Storage;

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
        await using var azure = await BlockingBlobEndpoint.StartAsync(blockedCreates: 3);
        var storage = new OutboxStorage(azure.Client(),
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
        await using var azure = await BlockingBlobEndpoint.StartAsync(blockedCreates: int.MaxValue);
        var storage = new OutboxStorage(azure.Client(), OrderTopology.Outboxes)
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
    /// Deletes at once; refuses the first <c>blockedCreates</c> container creations as Azure does while it deletes.
    /// </summary>
    private sealed class BlockingBlobEndpoint : IAsyncDisposable
    {
        private readonly WebApplication _app;
        private int _blocked;

        private BlockingBlobEndpoint(WebApplication app, int blockedCreates)
        {
            _app = app;
            _blocked = blockedCreates;
        }

        public ConcurrentQueue<string> Calls { get; } = new();

        public static async Task<BlockingBlobEndpoint> StartAsync(int blockedCreates)
        {
            var app = LoopbackServer.Create();
            var endpoint = new BlockingBlobEndpoint(app, blockedCreates);
            app.Run(endpoint.AnswerAsync);
            await app.StartAsync();
            return endpoint;
        }

        public BlobServiceClient Client() => BlobClientFactory.Create(
            new StorageOptions { ConnectionString = Azurite.ConnectionStringFor(LoopbackServer.AddressOf(_app).Port) },
                OutboxStorage.CallTimeout);

        public async ValueTask DisposeAsync() => await _app.DisposeAsync();

        private async Task AnswerAsync(HttpContext context)
        {
            var container = context.Request.Path.Value!.Split('/', StringSplitOptions.RemoveEmptyEntries).Last();
            Calls.Enqueue($"{context.Request.Method} {container}");
            context.Response.Headers["x-ms-request-id"] = Guid.NewGuid().ToString();
            context.Response.Headers["x-ms-version"] = "2018-03-28";
            switch (context.Request.Method)
            {
                case "DELETE":
                    context.Response.StatusCode = StatusCodes.Status202Accepted;
                    break;
                case "PUT" when Interlocked.Decrement(ref _blocked) >= 0:
                    context.Response.StatusCode = StatusCodes.Status409Conflict;
                    context.Response.Headers["x-ms-error-code"] = "ContainerBeingDeleted";
                    context.Response.ContentType = "application/xml";
                    await context.Response.WriteAsync(
                        "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>ContainerBeingDeleted</Code>" +
                        "<Message>The specified container is being deleted. Try operation later.</Message></Error>");
                    break;
                case "PUT" or "GET" or "HEAD":
                    // Created, or (before the delete) there.
                    context.Response.StatusCode =
                        context.Request.Method == "PUT" ? StatusCodes.Status201Created : StatusCodes.Status200OK;
                    context.Response.Headers.ETag = "\"0x1\"";
                    context.Response.Headers.LastModified = DateTimeOffset.UtcNow.ToString("R");
                    break;
                default:
                    context.Response.StatusCode = StatusCodes.Status404NotFound;
                    break;
            }
        }
    }
}
