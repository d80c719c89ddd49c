using System.Text.RegularExpressions;

namespace OrderDistribution.Deployment.Tests;

/// <summary>
/// Every artifact the docs name publishes with the plain command they give (into a temp folder instead of theirs):
/// the load tool, both apps, the benchmark and the real-parts and broker tests. One at a time: each builds in Release.
/// </summary>
[Collection(ReleaseBuilds)]
public sealed class PublishTests
{
    /// <summary>The tests that build in Release: one at a time, as two builds of one project would collide.</summary>
    public const string ReleaseBuilds = "Release builds";

    /// <summary>
    /// The command as the doc gives it, the value of its placeholder ($project, &lt;project&gt;), and the assembly it
    /// publishes.
    /// </summary>
    public static TheoryData<string, string, string, string> Artifacts() => new()
    {
        { "docs/load-tool.md", "dotnet publish src/OrderDistribution.LoadTool -c Release", "", "order-load.dll" },
        { "docs/local-run.md",
            "dotnet publish -c Release --use-current-runtime --self-contained false -o " +
            "src/OrderDistribution.$project/bin/run src/OrderDistribution.$project", "Distributor",
            "OrderDistribution.Distributor.dll" },
        { "docs/local-run.md",
            "dotnet publish -c Release --use-current-runtime --self-contained false -o " +
            "src/OrderDistribution.$project/bin/run src/OrderDistribution.$project", "Receiver",
            "OrderDistribution.Receiver.dll" },
        { "docs/benchmark.md",
            "dotnet publish -c Release -r linux-x64 tests/OrderDistribution.Benchmarks -o " +
            "tests/OrderDistribution.Benchmarks/bin/published", "", "OrderDistribution.Benchmarks.dll" },
        { "docs/testing.md", "dotnet publish tests/OrderDistribution.RealParts.Tests -c Release -o <folder>", "",
            "OrderDistribution.RealParts.Tests.dll" },
        { "docs/testing.md", "dotnet publish tests/OrderDistribution.Brokers.Tests -c Release -o <folder>", "",
            "OrderDistribution.Brokers.Tests.dll" },
    };

    [Theory]
    [MemberData(nameof(Artifacts))]
    public void Each_artifact_publishes_with_the_command_its_doc_gives_and_no_referenced_apps_settings_at_its_root(
        string doc, string documented, string placeholder, string main)
    {
        // The doc's shell lines as one: a line ending in \ goes on on the next.
        Assert.Contains(documented, Regex.Replace(Repo.Read(doc), @"\s*\\\s*\n\s*", " "), StringComparison.Ordinal);
        var command = documented.Replace("$project", placeholder, StringComparison.Ordinal)
            .Replace("<project>", placeholder, StringComparison.Ordinal);
        var folder = Directory.CreateTempSubdirectory("publish-").FullName;
        try
        {
            var arguments = command.Split(' ').Skip(1).ToList();
            var output = arguments.IndexOf("-o");
            if (output >= 0)
            {
                arguments[output + 1] = folder;
            }
            else
            {
                arguments.AddRange(["-o", folder]);
            }

            var (exitCode, printed) = Repo.Run("dotnet", TimeSpan.FromMinutes(8), [.. arguments]);

            var errors = printed.Split('\n')
                .Where(l => l.Contains("error", StringComparison.OrdinalIgnoreCase)).Take(10);
            Assert.True(exitCode == 0, $"{command} exited {exitCode}:\n{string.Join('\n', errors)}");
            Assert.True(File.Exists(Path.Combine(folder, main)), $"{command} published no {main}");
            var ownSettings = File.Exists(
                Repo.PathOf(
                Path.Combine(
                arguments.Last(a => a.StartsWith("src/", StringComparison.Ordinal)
                || a.StartsWith("tests/", StringComparison.Ordinal)), "appsettings.json")));
            Assert.Equal(ownSettings, File.Exists(Path.Combine(folder, "appsettings.json")));
            if (Directory.Exists(Path.Combine(folder, "apps")))
            {
                // The sidecar emulator's copies: each app's own settings, where it runs them.
                Assert.Equal(Repo.Read("src/OrderDistribution.Distributor/appsettings.json"),
                    File.ReadAllText(Path.Combine(folder, "apps", "distributor", "appsettings.json")));
                Assert.Equal(Repo.Read("src/OrderDistribution.Receiver/appsettings.json"),
                    File.ReadAllText(Path.Combine(folder, "apps", "receiver", "appsettings.json")));
            }
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
