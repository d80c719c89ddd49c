using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>The benchmark's modes that run within a minute, run as the docs give them with a small count.</summary>
[Collection(PublishTests.ReleaseBuilds)]
public sealed partial class BenchmarkCommandTests
{
    [Fact]
    public void The_requests_mode_prints_a_receivers_cost_per_request_for_each_model_and_store()
    {
        const string Documented = "dotnet run -c Release --project tests/OrderDistribution.Benchmarks -- requests";
        Assert.Contains(Documented, Repo.Read("docs/benchmark.md"), StringComparison.Ordinal);

        var (exitCode, output) =
            Repo.Run("dotnet", TimeSpan.FromMinutes(10), [.. Documented.Split(' ').Skip(1), "200"]);

        Assert.True(exitCode == 0, $"{Documented} 200 exited {exitCode}:\n{output}");
        var lines = output.Split('\n').Select(l => l.Trim()).Where(l => RequestLine().IsMatch(l)).ToList();
        // Two models, each with its orders stored, only uploaded, kept by no store, and kept by no store without
        // request telemetry.
        Assert.True(lines.Count == 8, $"expected 8 lines of a receiver's cost per request:\n{output}");
        Assert.Equal(["pubsub-single", "bindings"], lines.Select(l => l.Split(' ')[0]).Distinct());
    }

    [GeneratedRegex(@"^\S+ receiver, [^:]+: [0-9.]+ CPU ms and [0-9.]+ KiB allocated per request, 200 requests in ")]
    private static partial Regex RequestLine();
}
