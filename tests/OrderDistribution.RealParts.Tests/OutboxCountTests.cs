using Azure.Storage.Blobs;

namespace OrderDistribution.RealParts.Tests;

/// <summary>Counting an outbox while the load tool's clear deletes and makes it again, on a real Azurite.</summary>
[Trait("Category", "RealParts")]
public sealed class OutboxCountTests
{
    [Fact]
    public async Task An_outbox_deleted_and_made_again_while_counted_counts_as_empty_or_what_it_holds_never_an_error()
    {
        var missing = Azurite.MissingPrerequisite();
        Assert.SkipWhen(missing is not null, missing ?? "");
        var ct = TestContext.Current.CancellationToken;
        await using var azurite = await Azurite.StartAsync();
        var outbox = new BlobServiceClient(azurite.ConnectionString).GetBlobContainerClient("outbox-express");

        Assert.Equal(0, await OutboxCount.CountAsync(outbox, ct));

        await outbox.CreateAsync(cancellationToken: ct);
        await Task.WhenAll(
            Enumerable.Range(0, 20).Select(i => outbox.UploadBlobAsync($"{i}.json", BinaryData.FromString("{}"), ct)));
        Assert.Equal(20, await OutboxCount.CountAsync(outbox, ct));

        // The clear of order-load, again and again, while the count goes on.
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(ct);
        var clearing = Task.Run(async () =>
        {
            var clears = 0;
            while (!stop.IsCancellationRequested)
            {
                await outbox.DeleteIfExistsAsync(cancellationToken: CancellationToken.None);
                await outbox.CreateIfNotExistsAsync(cancellationToken: CancellationToken.None);
                clears++;
            }

            return clears;
        }, CancellationToken.None);
        var counts = new List<int>();
        for (var i = 0; i < 200; i++)
        {
            counts.Add(await OutboxCount.CountAsync(outbox, ct));
        }

        await stop.CancelAsync();
        Assert.True(await clearing > 10, "the container was not cleared often enough to meet the counts");
        Assert.All(counts, count => Assert.InRange(count, 0, 20));
    }
}
