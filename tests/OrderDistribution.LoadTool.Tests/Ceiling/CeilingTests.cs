using Azure.Storage.Blobs;
using OrderDistribution.Contracts;
using OrderDistribution.LoadTool.Ceiling;
using OrderDistribution.LoadTool.Reporting;
using OrderDistribution.LoadTool.Watching;
using OrderDistribution.TestSupport;

namespace OrderDistribution.LoadTool.Tests.Ceiling;

/// <summary>ceiling, storage alone, against a real Azurite.</summary>
[Collection(nameof(CeilingTests))]
public sealed class CeilingTests(AzuriteFixture storage) : IClassFixture<AzuriteFixture>, IDisposable
{
    private readonly TempFolder _folder = new("order-load-");

    public void Dispose() => _folder.Dispose();

    [Fact]
    public async Task Ceiling_uploads_every_blob_into_a_container_it_creates_and_deletes_never_touching_the_outboxes()
    {
        var service = new BlobServiceClient(storage.Azurite.ConnectionString);
        var outbox = service.GetBlobContainerClient(WatchExpectation.OutboxFor(Delivery.Express));
        await outbox.CreateIfNotExistsAsync();
        await outbox.GetBlobClient("1000001.json").UploadAsync(BinaryData.FromString("{}"), overwrite: true);
        var cli = await MeasureAllAsync(300);

        Assert.Contains("16 in flight, 0 failed", cli.Output, StringComparison.Ordinal);
        var containers = new List<string>();
        await foreach (var container in service.GetBlobContainersAsync())
        {
            containers.Add(container.Name);
        }

        Assert.DoesNotContain(OrderTopology.StorageAloneContainer, containers);
        Assert.Equal(["1000001.json"], await NamesAsync(outbox));

        var row = Assert.Single(await ResultsFile.ReadAsync(Path.Combine(_folder.Path, "LOG.jsonl"), default));
        Assert.Equal((StorageCeiling.Label, 300, 0, (BurstStart?)null), (row.Label, row.Count, row.Missing, row.Start));
        Assert.True(row.CycleSeconds > 0, $"cycle time {row.CycleSeconds}");
        Assert.Equal(300, row.StoredPerSecond.Sum());
        Assert.EndsWith(",300", (await File.ReadAllLinesAsync(Path.Combine(_folder.Path, row.CsvFileName())))[^1],
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task In_a_container_already_there_as_in_Azure_ceiling_removes_only_what_it_wrote_and_leaves_the_rest()
    {
        var service = new BlobServiceClient(storage.Azurite.ConnectionString);
        var deployed = service.GetBlobContainerClient(OrderTopology.StorageAloneContainer);
        await deployed.CreateIfNotExistsAsync();
        await deployed.GetBlobClient("someone-elses.txt").UploadAsync(BinaryData.FromString("keep"), overwrite: true);
        await MeasureAllAsync(200);

        Assert.True(await deployed.ExistsAsync());
        Assert.Equal(["someone-elses.txt"], await NamesAsync(deployed));
        await deployed.DeleteAsync();
    }

    [Fact]
    public async Task The_blobs_a_killed_ceiling_left_are_removed_before_the_next_measures_and_it_says_so_in_a_line()
    {
        // What a kill -9 in the middle of a measurement leaves in the container that was there: its order blobs.
        var service = new BlobServiceClient(storage.Azurite.ConnectionString);
        var deployed = service.GetBlobContainerClient(OrderTopology.StorageAloneContainer);
        await deployed.CreateIfNotExistsAsync();
        await deployed.GetBlobClient("someone-elses.txt").UploadAsync(BinaryData.FromString("keep"), overwrite: true);
        await Parallel.ForEachAsync(TestOrders.Many(300), async (order, ct) =>
            await deployed.GetBlobClient(OrderBlob.NameOf(order))
                .UploadAsync(BinaryData.FromString("{}"), overwrite: true, ct));

        var cli = await MeasureAllAsync(200);

        var said = cli.Output.Split('\n').Where(l => l.Contains("an earlier ceiling left", StringComparison.Ordinal))
            .ToList();
        Assert.Equal(
            ["Removed 300 order blobs an earlier ceiling left in storage-alone (it ended before removing them)."],
            said.Select(l => l.Trim()));
        Assert.Equal(["someone-elses.txt"], await NamesAsync(deployed));
        await deployed.DeleteAsync();
    }

    [Fact]
    public async Task A_measurement_cancelled_half_way_still_removes_what_it_wrote()
    {
        var service = new BlobServiceClient(storage.Azurite.ConnectionString);
        var deployed = service.GetBlobContainerClient(OrderTopology.StorageAloneContainer);
        await deployed.CreateIfNotExistsAsync();
        using var cancel = new CancellationTokenSource();
        var uploads = new Progress<int>(uploaded =>
        {
            if (uploaded >= 50)
            {
                cancel.Cancel();
            }
        });

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
            new StorageCeiling(service).MeasureAsync(TestOrders.Many(2_000), 4, uploads, cancel.Token));

        Assert.Empty(await NamesAsync(deployed));
        await deployed.DeleteAsync();
    }

    [Fact]
    public async Task Ceiling_names_storage_that_does_not_answer_in_two_lines_without_a_stack_trace()
    {
        var cli = new Cli();

        var exit = await cli.RunAsync("ceiling", "--count", "10", "--storage",
            Azurite.ConnectionStringFor(Azurite.FreePort()),
            "--results", Path.Combine(_folder.Path, "LOG.jsonl"));

        Assert.Equal(ExitCodes.Unreachable, exit);
        Assert.Contains("is not reachable", cli.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", cli.Output, StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(_folder.Path, "LOG.jsonl")));
    }

    /// <summary>
    /// Runs ceiling with <paramref name="count"/> uploads, 16 in flight, and checks that every upload went in.
    /// </summary>
    private async Task<Cli> MeasureAllAsync(int count)
    {
        var cli = new Cli();
        var exit = await cli.RunAsync("ceiling", "--count",
            count.ToString(System.Globalization.CultureInfo.InvariantCulture), "--in-flight", "16",
            "--storage", storage.Azurite.ConnectionString, "--results", Path.Combine(_folder.Path, "LOG.jsonl"));

        Assert.True(exit == 0, cli.Output);
        Assert.Contains($"storage-alone: {count}/{count} uploads in ", cli.Output, StringComparison.Ordinal);
        return cli;
    }

    private static async Task<List<string>> NamesAsync(BlobContainerClient container)
    {
        var names = new List<string>();
        await foreach (var blob in container.GetBlobsAsync())
        {
            names.Add(blob.Name);
        }

        return names;
    }
}
