namespace OrderDistribution.Deployment.Tests;

public class KqlTests
{
    private static IEnumerable<string> KqlFiles() =>
        Directory.GetFiles(Repo.PathOf("scripts/kql"), "*.kql").Order(StringComparer.Ordinal);

    [Fact]
    public void The_measurement_queries_are_all_there()
    {
        var names = KqlFiles().Select(Path.GetFileNameWithoutExtension).ToList();
        Assert.Equal(["cycle-time", "lock-lost", "publish-errors", "requests-per-5s", "retry-drop"], names);
    }

    [Fact]
    public void Every_query_filters_on_the_three_app_ids()
    {
        var ids = "dynamic([" + string.Join(", ", Contract.AppIds.Select(id => $"\"{id}\"")) + "])";
        foreach (var file in KqlFiles())
        {
            Assert.Contains(ids, File.ReadAllText(file), StringComparison.Ordinal);
        }
    }

    [RequiresKqlCheckerFact]
    public void Every_kql_file_parses_against_the_telemetry_schema()
    {
        var files = KqlFiles().Select(f => Path.GetRelativePath(Repo.Root, f)).ToArray();
        var (exitCode, output) = Repo.Run("node", ["scripts/kql-check.js", .. files]);
        Assert.True(exitCode == 0, output);
    }

    [RequiresKqlCheckerFact]
    public void The_kql_checker_reports_an_unknown_column()
    {
        var bad = Path.Combine(Path.GetTempPath(), $"bad-{Guid.NewGuid():N}.kql");
        File.WriteAllText(bad, "requests\n| where cloudRoleName == \"distributor\"\n");
        try
        {
            var (exitCode, output) = Repo.Run("node", "scripts/kql-check.js", bad);
            Assert.Equal(1, exitCode);
            Assert.Contains("KS142", output, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(bad);
        }
    }
}
