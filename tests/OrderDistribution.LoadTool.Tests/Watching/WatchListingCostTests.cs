using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Generation;
using OrderDistribution.LoadTool.Store;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Watching;

/// <summary>
/// What a real listing costs the tool, per name, on Azurite: the SDK's request, its XML and each blob's metadata, and
/// the tally. With the names a watch lists (<see cref="WatchCostTests"/>), it gives the watch's CPU for a burst.
/// </summary>
[Collection(nameof(WatchListingCostTests))]
public sealed class WatchListingCostTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>
{
    private const int Count = 10_000;

    [Fact]
    public async Task Watching_10000_stored_orders_on_azurite_reports_them_exactly_and_prints_what_a_name_listed_costs()
    {
        var client = new BlobServiceClient(storage.Azurite.ConnectionString);
        var orders = OrderGenerator.Generate(Count, seed: 6);
        foreach (var outbox in OrderTopology.Outboxes)
        {
            await client.GetBlobContainerClient(outbox).CreateIfNotExistsAsync();
        }

        var storedAt = DateTimeOffset.UtcNow;
        await Parallel.ForEachAsync(orders, new ParallelOptions { MaxDegreeOfParallelism = 16 }, async (order, _) =>
            await StoredOrders.StoreAsync(client, WatchExpectation.OutboxFor(order.Delivery), order, storedAt,
                createContainer: false));
        var outboxes = new OutboxStorage(client, OrderTopology.Outboxes);
        // The first look at all: the SDK's and the tally's code compiled before it is measured.
        await new OutboxWatcher(outboxes, WatchPacing.Default)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders.Take(10).ToList())), storedAt,
                TimeSpan.FromSeconds(30), null, null, default);

        var (report, cost) = await WatchCostMeasure.OfAsync(() => new OutboxWatcher(outboxes, WatchPacing.Default)
            .WatchAsync(WatchExpectation.For(OrderSet.ValidOnly(orders)), storedAt.AddSeconds(-1),
                TimeSpan.FromSeconds(60), null, null, default));

        TestContext.Current.TestOutputHelper?.WriteLine(
            $"watch of {Count} stored orders on Azurite: {report.ListingCalls} listing calls, {report.NamesListed} " +
            $"names, " +
                          $"then {report.FinalListingCalls} calls and {report.FinalNamesListed} names with the " +
                          $"stored times; {cost}");
        Assert.True(report.Complete);
        Assert.Empty(report.Duplicated);
        Assert.Equal(Count, report.Stored);
        Assert.Equal(storedAt, report.LastStoredAt);

        // What a name costs listed alone, as the looks list it, and with its stored time, as the last listing does.
        foreach (var storedTimes in (bool[])[false, true])
        {
            var (names, listing) = await WatchCostMeasure.OfAsync(() => ListAllAsync(outboxes, storedTimes));
            TestContext.Current.TestOutputHelper?.WriteLine(
                $"{names} names listed {(storedTimes ? "with" : "without")} the stored times: {listing}");
            Assert.Equal(Count, names);
        }
    }

    private static async Task<int> ListAllAsync(OutboxStorage outboxes, bool storedTimes)
    {
        var names = 0;
        foreach (var outbox in outboxes.Outboxes)
        {
            string? continuation = null;
            do
            {
                var page = await outboxes.ListPageAsync(outbox, "", continuation, OutboxStorage.PageSize, storedTimes,
                    default);
                names += page.Blobs.Count(b => storedTimes == (b.StoredAt is not null));
                continuation = page.Continuation;
            }
            while (continuation is not null);
        }

        return names;
    }
}
