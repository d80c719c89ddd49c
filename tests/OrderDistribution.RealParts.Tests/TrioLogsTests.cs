namespace OrderDistribution.RealParts.Tests;

/// <summary>A trio's logs after its test: kept and shown when it failed, gone when it passed.</summary>
[Trait("Category", "RealParts")]
public sealed class TrioLogsTests
{
    [Fact]
    public async Task After_a_failed_test_the_folder_is_kept_and_named_and_the_output_ends_with_each_logs_last_lines()
    {
        var logs = TrioLogs.Create();
        await logs.WriteAsync("daprd-distributor",
            string.Join('\n', Enumerable.Range(1, 100).Select(i => $"daprd line {i}")));
        await logs.WriteAsync("app-distributor", "Warning OrderDistribution: the one line");
        var test = TestContext.Current.Test!.UniqueID;
        Assert.Contains(logs, TrioLogs.Of(test));

        var output = TrioLogs.Settle(test, passed: false);

        try
        {
            Assert.NotNull(output);
            Assert.StartsWith($"The full logs of the trio's sidecars and apps are kept in {logs.Folder}\n", output,
                StringComparison.Ordinal);
            Assert.Contains("--- daprd-distributor: last 30 of 100 lines ---\n" +
                string.Join('\n', Enumerable.Range(71, 30).Select(i => $"daprd line {i}")), output,
                StringComparison.Ordinal);
            Assert.DoesNotContain("daprd line 70\n", output, StringComparison.Ordinal);
            Assert.Contains("--- app-distributor: last 1 of 1 lines ---\nWarning OrderDistribution: the one line\n",
                output, StringComparison.Ordinal);
            Assert.EndsWith("daprd line 100\n", output, StringComparison.Ordinal);
            Assert.True(File.Exists(Path.Combine(logs.Folder, "daprd-distributor.log")));
            Assert.Contains("TrioLogsTests.After_a_failed_test", Path.GetFileName(logs.Folder),
                StringComparison.Ordinal);
            Assert.Empty(TrioLogs.Of(test));
        }
        finally
        {
            Directory.Delete(logs.Folder, recursive: true);
        }
    }

    [Fact]
    public async Task After_a_passed_test_the_folder_is_deleted_and_nothing_is_printed()
    {
        var logs = TrioLogs.Create();
        await logs.WriteAsync("daprd-distributor", "level=info msg=\"dapr initialized\"");

        var output = TrioLogs.Settle(TestContext.Current.Test!.UniqueID, passed: true);

        Assert.Null(output);
        Assert.False(Directory.Exists(logs.Folder));
    }
}
